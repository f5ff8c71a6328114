import Engines
import Foundation

/// What `pagescript bench` measures, and how many times.
///
/// ```swift
/// var options = BenchmarkOptions(quick: true)
/// options.engines = [.chromium]
/// ```
public struct BenchmarkOptions: Sendable {
    /// The engines whose rows are measured: WebKit and Chromium unless Firefox is asked for,
    /// since Firefox's rows would take the whole bench past the time it is meant to take.
    public var engines: [Engine] = [.webkit, .chromium]
    /// The groups of rows measured; all of them by default.
    public var sections: Set<BenchmarkSection> = Set(BenchmarkSection.allCases)
    /// Timed repetitions of each warm measurement (round trips on a warm session).
    public var repetitions: Int
    /// Timed repetitions of each cold measurement (engine start, process start).
    public var coldRepetitions: Int
    /// Samples of each in-process measurement (lookups, keystrokes, library loads).
    public var batches: Int
    /// Runs of each batch throughput measurement (200 pages each).
    public var batchRepetitions: Int
    /// Runs of each real-page measurement: one unless set, quick or not, since each run already
    /// goes over every page of the documentation (or the first ``realPageLimit``).
    public var realPageRepetitions: Int
    /// How many of the documentation's pages the real-page rows measure, the first in the order
    /// of their paths; `nil` for all (a smaller number checks that the rows run).
    public var realPageLimit: Int?
    /// Pages timed on each side of the browse rows (each moves on by itself after its load; see
    /// ``BrowseLatencyBenchmark/startSite()``).
    public var browseNavigations: Int
    /// Whether Selenium and Playwright for Python are measured as peers (they need `python3`
    /// and, once, PyPI).
    public var includesPeer = true
    /// The `pagescript` executable timed as a process: the benchmark's own, normally.
    public var pagescriptExecutable: String
    /// The folder of Selenium's virtual environment.
    public var peerFolder: URL

    /// Whether Selenium and Playwright are set up: when they are included and a selected section
    /// compares with them (`peers`, `batch` or `real-pages`).
    public var needsPeers: Bool {
        includesPeer && !sections.isDisjoint(with: [.peers, .batch, .realPages])
    }

    /// The defaults, or fewer repetitions for a quick look.
    ///
    /// - Parameters:
    ///   - quick: Whether to measure fewer repetitions (10 warm, 2 cold, 7 samples instead of
    ///     50, 5 and 25): a rough table, for checking that every row still runs.
    ///   - pagescriptExecutable: The `pagescript` executable timed as a process.
    ///   - peerFolder: Where Selenium's virtual environment goes.
    public init(quick: Bool = false, pagescriptExecutable: String = "pagescript", peerFolder: URL? = nil) {
        repetitions = quick ? 10 : 50
        coldRepetitions = quick ? 2 : 5
        batches = quick ? 7 : 25
        batchRepetitions = quick ? 1 : 3
        realPageRepetitions = 1
        browseNavigations = quick ? 8 : 30
        self.pagescriptExecutable = pagescriptExecutable
        self.peerFolder = peerFolder ?? SeleniumPeer.defaultFolder(environment: ProcessInfo.processInfo.environment)
    }
}
