/// How a batch ended and what it recorded: its last ``BatchProgress``.
///
/// ```swift
/// let summary = await runner.run { _ in }
/// summary.line   // "500 pages in 12.4 s (40.3/s): 493 ok, 7 failed (4 http-error, 2 timeout, 1 crashed)"
/// ```
public struct BatchSummary: Sendable, Equatable {
    /// Why the batch ended.
    public let ending: BatchEnding
    /// The final counts.
    public let progress: BatchProgress

    public init(ending: BatchEnding, progress: BatchProgress) {
        self.ending = ending
        self.progress = progress
    }

    /// One line for people: this run's pages, the time, the rate and the statuses, plus what an
    /// earlier run had recorded. Made only of numbers and PageScript's words.
    public var line: String {
        let pages = progress.done == 1 ? "1 page" : "\(progress.done) pages"
        let rate = progress.elapsed > 0 ? Double(progress.done) / progress.elapsed : 0
        var text = "\(pages) in \(ProgressLine.duration(progress.elapsed)) (\(ProgressLine.format(rate: rate))/s): "
        text += "\(progress.statusCounts[.ok] ?? 0) ok, \(progress.failed) failed"
        let failures = RecordStatus.allCases.filter { $0 != .ok }.compactMap { status -> String? in
            guard let count = progress.statusCounts[status], count > 0 else { return nil }
            return "\(count) \(status.rawValue)"
        }
        if !failures.isEmpty { text += " (" + failures.joined(separator: ", ") + ")" }
        if progress.retried > 0 { text += "; \(progress.retried) retried on a new session" }
        if progress.alreadyDone > 0 { text += "; \(progress.alreadyDone) recorded before" }
        return text
    }
}
