import SystemSupport

/// One batch over a list of pages, by PageScript or by a ``BatchThroughputPeer``: its time per
/// page and the value its script returned on each page.
///
/// ```swift
/// let run = try await BatchBenchmark.run("document.title", engine: .chromium, urls: urls, jobs: 4)
/// run.secondsPerPage      // from the first page's start to the last page's end, over the pages
/// run.values[urls[0]]     // .string("Bench /page/0")
/// ```
public struct BatchThroughputRun: Sendable {
    /// Seconds from the first page's start to the last page's end, over the number of pages.
    public let secondsPerPage: Double
    /// The script's value on each page, by the page's URL as it was given.
    public let values: [String: JSONValue]

    /// Wraps a run's time and values.
    public init(secondsPerPage: Double, values: [String: JSONValue]) {
        self.secondsPerPage = secondsPerPage
        self.values = values
    }
}
