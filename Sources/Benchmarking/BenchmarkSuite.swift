import Foundation
import SystemSupport

/// Every row of `pagescript bench`, measured in one run and returned in the table's order:
///
/// 1. and 2. warm run vs bare Execute Script, and cold run vs the driver's new session, per
///    engine (``RunBenchmark``);
/// 3. PageScript's cold process vs the bare-protocol floor (``ProtocolFloor``), and PageScript
///    vs Selenium and (on Chromium) Playwright for Python, cold processes and warm sessions, per
///    engine (``PeerBenchmark``; on Firefox, Playwright's rows say why it cannot be measured);
/// 4. site matching in large libraries and a library load, against budgets (``MatchingBenchmark``);
/// 5. keystrokes in fields and the editor, against budgets (``KeystrokeBenchmark``);
/// 6. peak memory of `pagescript run` with a 1,000-script library vs Selenium, per engine
///    (``MemoryBenchmark``);
/// 7. `pagescript batch` throughput over 200 loopback pages against the protocol floor,
///    Selenium's thread pool (on Firefox a geckodriver per thread) and (on Chromium)
///    Playwright's async pages, per engine (``BatchBenchmark``);
/// 8. `pagescript batch` throughput over the Python documentation served with a strict
///    Content-Security-Policy against Selenium and (on Chromium) Playwright at 1 and 4 pages at
///    once, per engine (``RealPageBenchmark``);
/// 9. `pagescript browse`: a page's load event to a `document-idle` script's first line, against
///    a bare client's first line and (WebKit) issue 13's 50 ms (``BrowseLatencyBenchmark``).
///
/// ``BenchmarkOptions/sections`` picks groups of rows (``BenchmarkSection``); the peers are set
/// up only when a selected section compares with them. The in-process rows (4, 5) are measured
/// first, before any browser runs beside them.
///
/// ```swift
/// let rows = try await BenchmarkSuite.run(BenchmarkOptions(quick: true)) { note in print(note) }
/// print(ComparisonTable.render(rows))
/// ```
public enum BenchmarkSuite {
    /// Measures the rows of every section `options` selects.
    ///
    /// - Parameters:
    ///   - options: What to measure and how often.
    ///   - progress: Told what is being measured, for the user; the table comes back at the end.
    /// - Throws: ``BenchmarkError``, ``EngineError`` or the page's error when a row cannot be measured.
    public static func run(_ options: BenchmarkOptions, progress: @Sendable (String) -> Void) async throws -> [ComparisonRow] {
        let sections = options.sections
        let fixture = try BenchmarkFixture.make()
        defer { fixture.remove() }
        let peers = try preparePeers(options, progress: progress)

        var matching: [ComparisonRow] = []
        if sections.contains(.matching) {
            progress("site matching and library load")
            matching = try MatchingBenchmark.rows(
                batches: options.batches, loadRepetitions: options.batches, libraryFolder: fixture.libraryWithoutMatch,
                largeLibraryFolder: fixture.largeLibrary)
        }
        var keystrokes: [ComparisonRow] = []
        if sections.contains(.keystrokes) {
            progress("keystrokes")
            keystrokes = KeystrokeBenchmark.rows(batches: options.batches)
        }

        var floors: [ComparisonRow] = []
        var peerRows: [ComparisonRow] = []
        var memory: [ComparisonRow] = []
        for engine in options.engines {
            if sections.contains(.runs) {
                progress("\(engine): warm and cold runs against the driver")
                floors += try await RunBenchmark.rows(
                    engine: engine, pageURL: fixture.pageURL, repetitions: options.repetitions, coldRepetitions: options.coldRepetitions)
                floors += try await UserScriptBenchmark.rows(
                    engine: engine, pageURL: fixture.pageURL, repetitions: options.repetitions,
                    libraryFolder: fixture.folder.appendingPathComponent("gm-values", isDirectory: true))
            }
            var seleniumMemory: Measurement?
            if let floor = peers.floor {
                progress("\(engine): cold processes against the protocol floor and the peers, warm runs against the peers")
                let outcome = try await PeerBenchmark.measure(
                    engine: engine, pageURL: fixture.pageURL,
                    peers: PeerBenchmark.Peers(floor: floor, selenium: peers.selenium, playwright: peers.playwright),
                    pagescript: options.pagescriptExecutable, repetitions: options.repetitions, coldRepetitions: options.coldRepetitions)
                peerRows += outcome.rows
                let phases = outcome.floorPhases.map { "\($0.name) \(ComparisonTable.format($0.seconds, unit: .seconds))" }
                progress("\(engine): the floor's cold run, median per phase: \(phases.joined(separator: ", "))")
                seleniumMemory = outcome.seleniumPeakMemory
            }
            if sections.contains(.memory) {
                progress("\(engine): peak memory with a 1,000-script library")
                memory += try MemoryBenchmark.rows(
                    engine: engine, fixture: fixture, pagescript: options.pagescriptExecutable,
                    repetitions: options.coldRepetitions, seleniumPeakMemory: seleniumMemory)
            }
        }
        let batchPeers = sections.isDisjoint(with: [.batch, .realPages]) ? [] : Self.batchPeers(peers, progress: progress)
        var batch: [ComparisonRow] = []
        if sections.contains(.batch) {
            let pages = try BatchBenchmark.startSite()
            defer { pages.site.stop() }
            for engine in options.engines {
                progress("\(engine): batch throughput over \(BatchBenchmark.pageCount) pages")
                batch += try await BatchBenchmark.rows(engine: engine, urls: pages.urls, peers: batchPeers, repetitions: options.batchRepetitions)
            }
        }
        var realPages: [ComparisonRow] = []
        if sections.contains(.realPages) {
            realPages = try await RealPageBenchmark.rows(
                engines: options.engines, peers: batchPeers, pageLimit: options.realPageLimit, repetitions: options.realPageRepetitions,
                progress: progress)
        }
        var browse: [ComparisonRow] = []
        if sections.contains(.browse) {
            let site = try BrowseLatencyBenchmark.startSite()
            defer { site.stop() }
            for engine in options.engines {
                progress("\(engine): browse, load event to a document-idle script's first line")
                let folder = fixture.folder.appendingPathComponent("browse-\(engine)", isDirectory: true)
                browse += try await BrowseLatencyBenchmark.rows(engine: engine, site: site, navigations: options.browseNavigations,
                                                                libraryFolder: folder)
            }
        }
        return floors + peerRows + batch + realPages + browse + matching + keystrokes + memory
    }

    /// The batch rows' peers: Selenium's thread pool, and Playwright's pages on Chromium when it
    /// could be installed (`progress` is told when it could not).
    private static func batchPeers(
        _ peers: (floor: ProtocolFloor?, selenium: SeleniumPeer?, playwright: Result<PlaywrightPeer, BenchmarkError>?),
        progress: (String) -> Void
    ) -> [any BatchThroughputPeer] {
        var batchPeers: [any BatchThroughputPeer] = peers.selenium.map { [SeleniumBatchPeer(selenium: $0)] } ?? []
        switch peers.playwright {
        case let .success(playwright): batchPeers.append(PlaywrightBatchPeer(playwright: playwright))
        case let .failure(error): progress("the batch rows leave Playwright out: \(error)")
        case nil: break
        }
        return batchPeers
    }

    /// The floor when the `peers` section is measured; Selenium and Playwright when the options
    /// need them (see ``BenchmarkOptions/needsPeers``). The floor runs on Selenium's Python, or
    /// on the system's `python3` without it (it needs only the standard library). Playwright
    /// that cannot be installed is reported in its rows, not thrown.
    private static func preparePeers(
        _ options: BenchmarkOptions, progress: (String) -> Void
    ) throws(BenchmarkError) -> (floor: ProtocolFloor?, selenium: SeleniumPeer?, playwright: Result<PlaywrightPeer, BenchmarkError>?) {
        var selenium: SeleniumPeer?
        var playwright: Result<PlaywrightPeer, BenchmarkError>?
        if options.needsPeers {
            let installed = try SeleniumPeer.prepare(in: options.peerFolder, progress: progress)
            selenium = installed
            if options.engines.contains(.chromium) {
                do throws(BenchmarkError) {
                    playwright = .success(try PlaywrightPeer.prepare(python: installed.python, folder: options.peerFolder, progress: progress))
                } catch {
                    playwright = .failure(error)
                }
            }
        }
        guard options.sections.contains(.peers) else { return (nil, selenium, playwright) }
        guard let python = selenium?.python ?? ExecutableLocator.find("python3") else {
            throw .peerUnavailable(reason: "python3 is not on PATH, and the protocol floor runs on it")
        }
        return (try ProtocolFloor.prepare(python: python, folder: options.peerFolder), selenium, playwright)
    }
}
