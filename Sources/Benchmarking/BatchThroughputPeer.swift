import Engines

/// Another tool running the work of `pagescript batch` (open each page, evaluate one expression
/// in it) with several pages at once, for the batch throughput rows of the table.
///
/// ``SeleniumBatchPeer`` is Selenium for Python with a thread pool; ``PlaywrightBatchPeer`` is
/// Playwright for Python with as many pages open at once in one browser, on Chromium. Another
/// peer conforms here and is added to ``BatchBenchmark/rows(engine:urls:peers:repetitions:)``'s
/// and ``RealPageBenchmark/rows(engine:urls:peers:repetitions:)``'s `peers`; its rows then appear
/// with no other change.
public protocol BatchThroughputPeer: Sendable {
    /// How rows name the peer running `jobs` pages at once, e.g. "Selenium 4.51.0 (Python), 4 threads".
    func name(jobs: Int) -> String

    /// Whether the peer drives `engine`.
    func supports(_ engine: Engine) -> Bool

    /// The throughput ratio the issue aims at against this peer on the loopback pages of
    /// ``BatchBenchmark`` (PageScript's time per page over the peer's, at most), if any.
    var aim: Double? { get }

    /// Runs every page of `urls`, `jobs` at once, on `engine`: loads the page and evaluates
    /// `expression` in it, as the tool's users evaluate an expression.
    ///
    /// - Parameters:
    ///   - expression: A JavaScript expression, such as `document.title`.
    ///   - engine: WebKit, Chromium or Firefox.
    ///   - urls: The pages, each different.
    ///   - jobs: Pages at once.
    ///   - display: The X display for WebKit.
    /// - Returns: The seconds per page, from the first page's start to the last page's end over
    ///   the number of pages (so the browsers' start is not counted, on either side), and the
    ///   expression's value on each page.
    func run(_ expression: String, engine: Engine, urls: [String], jobs: Int, display: String?) throws(BenchmarkError) -> BatchThroughputRun
}
