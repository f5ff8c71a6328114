import Engines
import Foundation
import SystemSupport

/// The real-page batch rows of the table: `pagescript batch` over the pages of the Python
/// documentation (``PythonDocumentation``), served on loopback with a strict
/// Content-Security-Policy (``StaticSite``), against Selenium and Playwright for Python doing the
/// same work.
///
/// Where ``BatchBenchmark``'s pages are a line of HTML, these are what a batch meets on a real
/// site: pages small and large, each with its style sheets, the scripts that run as it loads,
/// images, and inline scripts and styles that the policy blocks. Every tool evaluates
/// ``expression`` on every page (what a scraper reads from a documentation page: its title, its
/// first heading, how many sections and links it has; nothing that depends on the window's size,
/// which the tools set differently). PageScript runs in this process through `BatchRunner`, as
/// `pagescript batch -e EXPRESSION --jobs N` does, with the pages' policy in force; the peers are
/// the ``BatchThroughputPeer``s of the batch rows (on Firefox, Playwright's rows say why it
/// cannot be measured: ``PlaywrightPeer/firefoxUnavailable``). Each row compares seconds per page, as the
/// batch rows do, at `--jobs` 1 and 4 (``jobCounts``) against each peer that drives the engine,
/// aiming at 1.5 times the peer's throughput (``aim``). At one job PageScript is also compared with
/// the bare floor (one session, a bare navigation and one Execute Script of ``expression`` a page:
/// ``BatchBenchmark/floor(engine:urls:expression:)``), and a detail row compares that floor with
/// each peer: what any client of the engine can reach on these pages, against which the aim reads.
/// Detail rows also compare the processor time each run cost, per page, with every process it
/// started (``CPUClock``): where jobs outnumber the cores, throughput follows it.
///
/// The speed may not cost correctness: every PageScript record must be `ok`, and every run,
/// PageScript's and each peer's, must return on every page the value PageScript's first run on
/// that engine returned. A run that does not fails the rows, naming the pages that differ.
///
/// ```swift
/// let rows = try await RealPageBenchmark.rows(engines: [.chromium], peers: peers, pageLimit: nil, repetitions: 1) { note in
///     print(note)
/// }
/// ```
public enum RealPageBenchmark {
    /// The `--jobs` values measured.
    public static let jobCounts = [1, 4]
    /// The aim against every peer: 1.5 times its throughput, so at most two thirds of its time
    /// per page.
    public static let aim = 1 / 1.5
    /// The aim against the bare floor at one job, the tiny-page batch rows' (``BatchBenchmark``).
    public static let floorAim = 1.2
    /// What every tool evaluates on every page: one line, since Selenium's script is
    /// `return ` followed by it.
    public static let expression = """
        ({title: document.title, heading: (document.querySelector('h1') || {textContent: ''}).textContent, \
        sections: document.querySelectorAll('section').length, links: document.links.length})
        """
    /// How the rows name their pages.
    static let pagesLabel = "real pages (Python docs, strict CSP)"

    /// Every real-page row: installs the documentation when it is missing, serves it on loopback
    /// and measures each engine.
    ///
    /// When the documentation cannot be installed (see ``PythonDocumentation/prepare(progress:)``),
    /// `progress` is told why and what installs it, and there are no rows.
    ///
    /// - Parameters:
    ///   - engines: The engines measured.
    ///   - peers: The other tools to compare with; none when the peers are skipped.
    ///   - pageLimit: Measure only this many of the pages, the first in the order of their paths;
    ///     `nil` for every page.
    ///   - repetitions: Runs of each measurement.
    ///   - progress: Told what is being measured, for the user.
    /// - Throws: ``BenchmarkError`` or the batch's error when a run fails or its values differ from
    ///   PageScript's.
    public static func rows(
        engines: [Engine], peers: [any BatchThroughputPeer], pageLimit: Int?, repetitions: Int, progress: @Sendable (String) -> Void
    ) async throws -> [ComparisonRow] {
        let folder: URL
        do throws(BenchmarkError) {
            folder = try PythonDocumentation.prepare(progress: progress)
        } catch {
            guard case .pagesUnavailable = error else { throw error }
            progress("the real-page rows are skipped: \(error)")
            return []
        }
        let site = try StaticSite(serving: folder)
        defer { site.stop() }
        let urls = Array(site.pageURLs.prefix(pageLimit ?? Int.max))
        var rows: [ComparisonRow] = []
        for engine in engines {
            rows += try await self.rows(engine: engine, urls: urls, peers: peers, repetitions: repetitions, progress: progress)
        }
        return rows
    }

    /// The real-page rows of `engine`.
    ///
    /// - Parameters:
    ///   - engine: WebKit, Chromium or Firefox.
    ///   - urls: The pages, each different (see ``StaticSite/pageURLs``).
    ///   - peers: The other tools to compare with; a row without a baseline for each `--jobs`
    ///     when none drives `engine`.
    ///   - repetitions: Runs of each measurement.
    ///   - progress: Told what is being measured, for the user.
    /// - Throws: ``BenchmarkError`` or the batch's error when a run fails or its values differ from
    ///   PageScript's.
    public static func rows(
        engine: Engine, urls: [String], peers: [any BatchThroughputPeer], repetitions: Int, progress: @Sendable (String) -> Void
    ) async throws -> [ComparisonRow] {
        var reference: [String: JSONValue]?
        var ours: [Int: Measurement] = [:]
        var ourProcessorTime: [Int: Measurement] = [:]
        for jobs in jobCounts {
            progress("\(engine): \(pagesLabel), \(urls.count) pages, pagescript batch --jobs \(jobs)")
            var samples: [Double] = [], processorTime: [Double] = []
            for _ in 0..<repetitions {
                let clock = CPUClock.start()
                let run = try await BatchBenchmark.run(expression, engine: engine, urls: urls, jobs: jobs)
                processorTime.append(clock.secondsUsed() / Double(urls.count))
                try check(run, of: "pagescript batch --jobs \(jobs) on \(engine)", against: &reference, urls: urls)
                samples.append(run.secondsPerPage)
            }
            ours[jobs] = Measurement(name: "pagescript batch --jobs \(jobs), real pages", samples: samples)
            ourProcessorTime[jobs] = Measurement(name: "pagescript batch --jobs \(jobs), real pages, processor time", samples: processorTime)
        }
        progress("\(engine): \(pagesLabel), \(urls.count) pages, bare navigate + Execute Script")
        var floorSamples: [Double] = []
        for _ in 0..<repetitions {
            let run = try await BatchBenchmark.floor(engine: engine, urls: urls, expression: expression)
            try check(run, of: "bare navigate + Execute Script on \(engine)", against: &reference, urls: urls)
            floorSamples.append(run.secondsPerPage)
        }
        let floor = Measurement(name: "navigate + Execute Script, real pages", samples: floorSamples)
        let title = { (jobs: Int) in "\(engine): \(pagesLabel) --jobs \(jobs), per page of \(urls.count)" }
        var rows = [ComparisonRow(title: title(1) + " vs bare navigate + Execute Script", subject: ours[1]!, baseline: floor, aim: floorAim)]
        let drivers = peers.filter { $0.supports(engine) }
        guard !drivers.isEmpty else {
            return rows + jobCounts.map { ComparisonRow(title: title($0) + " (peers skipped)", subject: ours[$0]!, baseline: nil, aim: aim) }
        }
        let display = try engine == .webkit ? ExecutableLocator.find("Xvfb").map { try XvfbDisplay.start(executable: $0) } : nil
        defer { display?.stop() }
        for peer in drivers {
            for jobs in jobCounts {
                progress("\(engine): \(pagesLabel), \(urls.count) pages, \(peer.name(jobs: jobs))")
                var samples: [Double] = [], processorTime: [Double] = []
                for _ in 0..<repetitions {
                    let clock = CPUClock.start(keeping: display.map { [$0.process.processID] } ?? [])
                    let run = try peer.run(expression, engine: engine, urls: urls, jobs: jobs, display: display?.name)
                    processorTime.append(clock.secondsUsed() / Double(urls.count))
                    try check(run, of: "\(peer.name(jobs: jobs)) on \(engine)", against: &reference, urls: urls)
                    samples.append(run.secondsPerPage)
                }
                let baseline = Measurement(name: peer.name(jobs: jobs), samples: samples)
                rows.append(ComparisonRow(title: title(jobs) + " vs \(peer.name(jobs: jobs))", subject: ours[jobs]!, baseline: baseline, aim: aim))
                if jobs == 1 {
                    rows.append(ComparisonRow(
                        title: "\(engine): \(pagesLabel), the bare floor itself vs \(peer.name(jobs: jobs)) (detail)", subject: floor,
                        baseline: baseline, aim: nil))
                }
                rows.append(ComparisonRow(
                    title: title(jobs) + ", processor time of every process vs \(peer.name(jobs: jobs)) (detail)", subject: ourProcessorTime[jobs]!,
                    baseline: Measurement(name: peer.name(jobs: jobs) + ", processor time", samples: processorTime), aim: nil))
            }
        }
        if engine == .firefox {
            rows += jobCounts.map { jobs in
                ComparisonRow(title: title(jobs) + " vs Playwright (Python), \(jobs) \(jobs == 1 ? "page" : "pages") at once", subject: ours[jobs]!, baseline: nil, aim: aim,
                              note: PlaywrightPeer.firefoxUnavailable)
            }
        }
        return rows
    }

    /// Checks that `run` returned a value for every page of `urls`, and the value of `reference`
    /// (the first run's values, which a first run becomes).
    ///
    /// - Throws: ``BenchmarkError/processFailed(command:status:output:)`` naming `label` and the
    ///   first pages that differ.
    static func check(_ run: BatchThroughputRun, of label: String, against reference: inout [String: JSONValue]?, urls: [String]) throws(BenchmarkError) {
        if let known = reference {
            if let problem = disagreement(run.values, with: known, urls: urls) {
                throw .processFailed(command: label, status: "its values differ from PageScript's", output: problem)
            }
        } else {
            let missing = urls.filter { (run.values[$0] ?? .null).isNull }
            guard missing.isEmpty else {
                throw .processFailed(command: label, status: "no value on \(missing.count) of \(urls.count) pages",
                                     output: missing.prefix(3).joined(separator: ", "))
            }
            reference = run.values
        }
    }

    /// What differs between `values` and `reference` on `urls`, page by page (the first three,
    /// and how many in all); `nil` when every page has the same value. An object's members are
    /// compared whatever their order.
    static func disagreement(_ values: [String: JSONValue], with reference: [String: JSONValue], urls: [String]) -> String? {
        let differing = urls.filter { url in values[url].map(unordered) != reference[url].map(unordered) }
        guard !differing.isEmpty else { return nil }
        let shown = differing.prefix(3).map { url in
            "\(url): \(values[url]?.serialized.prefix(200) ?? "no value") where PageScript returned \(reference[url]?.serialized.prefix(200) ?? "no value")"
        }
        return "\(differing.count) of \(urls.count) pages differ; " + shown.joined(separator: "; ")
    }

    /// `value` with every object's members sorted by name.
    static func unordered(_ value: JSONValue) -> JSONValue {
        switch value {
        case let .array(elements): .array(elements.map(unordered))
        case let .object(members): .object(members.map { (key: $0.key, value: unordered($0.value)) }.sorted { $0.key < $1.key })
        default: value
        }
    }
}
