/// A group of rows of `pagescript bench`, measured or left out as a whole (`--sections`).
///
/// The memory rows compare with the Selenium process's peak memory, which the `peers` section's
/// cold Selenium runs record: measured without `peers`, they have no baseline and their titles
/// say "(peer skipped)", rather than `memory` quietly running Selenium's cold processes too.
///
/// ```swift
/// var options = BenchmarkOptions(quick: true)
/// options.sections = [.batch, .realPages]
/// options.needsPeers     // true: the batch rows compare with Selenium and Playwright
/// ```
public enum BenchmarkSection: String, CaseIterable, Sendable {
    /// Site matching in large libraries, and a library load (``MatchingBenchmark``).
    case matching
    /// Keystrokes in fields and in the editor (``KeystrokeBenchmark``).
    case keystrokes
    /// Warm and cold runs against the driver, with and without the GM API (``RunBenchmark``,
    /// ``UserScriptBenchmark``).
    case runs
    /// Cold processes against the protocol floor and the peers, and warm runs against the peers
    /// (``PeerBenchmark``).
    case peers
    /// Peak memory of `pagescript run` with a 1,000-script library (``MemoryBenchmark``).
    case memory
    /// `pagescript batch` throughput against the floor and the peers (``BatchBenchmark``).
    case batch
    /// `pagescript batch` throughput over the Python documentation, served with a strict
    /// Content-Security-Policy, against the peers (``RealPageBenchmark``); `--sections real-pages`.
    case realPages = "real-pages"
    /// `pagescript browse`: a page's load event to a `document-idle` script's first line
    /// (``BrowseLatencyBenchmark``).
    case browse
}
