import Foundation
import WebDriver

/// Every row of `pagescript bench`, measured in one run and returned in the table's order:
///
/// 1. and 2. warm run vs bare Execute Script, and cold run vs the driver's new session, per
///    engine (``RunBenchmark``);
/// 3. PageScript vs Selenium for Python, cold processes and warm sessions, per engine
///    (``PeerBenchmark``);
/// 4. site matching in large libraries and a library load, against budgets (``MatchingBenchmark``);
/// 5. keystrokes in fields and the editor, against budgets (``KeystrokeBenchmark``);
/// 6. peak memory of `pagescript run` with a 1,000-script library vs Selenium, per engine
///    (``MemoryBenchmark``).
///
/// The in-process rows (4, 5) are measured first, before any browser runs beside them.
///
/// ```swift
/// let rows = try await BenchmarkSuite.run(BenchmarkOptions(quick: true)) { note in print(note) }
/// print(ComparisonTable.render(rows))
/// ```
public enum BenchmarkSuite {
    /// Measures every row.
    ///
    /// - Parameters:
    ///   - options: What to measure and how often.
    ///   - progress: Told what is being measured, for the user; the table comes back at the end.
    /// - Throws: ``BenchmarkError``, ``EngineError`` or the page's error when a row cannot be measured.
    public static func run(_ options: BenchmarkOptions, progress: @Sendable (String) -> Void) async throws -> [ComparisonRow] {
        let fixture = try BenchmarkFixture.make()
        defer { fixture.remove() }
        let peer = try options.includesPeer
            ? SeleniumPeer.prepare(in: options.peerFolder, progress: progress)
            : nil

        progress("site matching and library load")
        let matching = try MatchingBenchmark.rows(
            batches: options.batches, loadRepetitions: options.batches, libraryFolder: fixture.libraryWithoutMatch,
            largeLibraryFolder: fixture.largeLibrary)
        progress("keystrokes")
        let keystrokes = KeystrokeBenchmark.rows(batches: options.batches)

        var floors: [ComparisonRow] = []
        var peers: [ComparisonRow] = []
        var memory: [ComparisonRow] = []
        for engine in options.engines {
            progress("\(engine): warm and cold runs against the driver")
            floors += try await RunBenchmark.rows(
                engine: engine, pageURL: fixture.pageURL, repetitions: options.repetitions, coldRepetitions: options.coldRepetitions)
            floors += try await UserScriptBenchmark.rows(
                engine: engine, pageURL: fixture.pageURL, repetitions: options.repetitions,
                libraryFolder: fixture.folder.appendingPathComponent("gm-values", isDirectory: true))
            var seleniumMemory: Measurement?
            if let peer {
                progress("\(engine): against Selenium \(peer.version)")
                let outcome = try await PeerBenchmark.measure(
                    engine: engine, pageURL: fixture.pageURL, peer: peer, pagescript: options.pagescriptExecutable,
                    repetitions: options.repetitions, coldRepetitions: options.coldRepetitions)
                peers += outcome.rows
                seleniumMemory = outcome.seleniumPeakMemory
            }
            progress("\(engine): peak memory with a 1,000-script library")
            memory += try MemoryBenchmark.rows(
                engine: engine, fixture: fixture, pagescript: options.pagescriptExecutable,
                repetitions: options.coldRepetitions, seleniumPeakMemory: seleniumMemory)
        }
        return floors + peers + matching + keystrokes + memory
    }
}
