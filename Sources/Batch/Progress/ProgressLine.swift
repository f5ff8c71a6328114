/// The one-line progress report `pagescript batch` keeps redrawing on a terminal.
///
/// It is made only of numbers and PageScript's own words, never of text from a page, so it is
/// safe to print as it is.
///
/// ```swift
/// ProgressLine.render(progress)
/// // "312/500 pages  41.2/s  7 failed  ETA 5s  4 sessions"
/// ```
public enum ProgressLine {
    /// The line for `progress`, without a newline.
    public static func render(_ progress: BatchProgress) -> String {
        let recorded = progress.alreadyDone + progress.done
        var parts: [String] = [progress.total.map { "\(recorded)/\($0) pages" } ?? "\(recorded) pages"]
        parts.append(progress.pagesPerSecond.map { "\(format(rate: $0))/s" } ?? "-/s")
        parts.append("\(progress.failed) failed")
        if let seconds = progress.estimatedSecondsLeft { parts.append("ETA \(duration(seconds))") }
        parts.append(progress.openSessions == 1 ? "1 session" : "\(progress.openSessions) sessions")
        if progress.waitingForSession > 0 { parts.append("\(progress.waitingForSession) waiting for a session") }
        return parts.joined(separator: "  ")
    }

    /// A rate with one decimal below 100, whole above.
    static func format(rate: Double) -> String {
        rate >= 100 ? String(Int(rate.rounded())) : String((rate * 10).rounded() / 10)
    }

    /// `45s`, `12m05s`, `3h07m`.
    public static func duration(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded())
        if whole < 60 { return "\(whole)s" }
        if whole < 3600 { return "\(whole / 60)m" + twoDigits(whole % 60) + "s" }
        return "\(whole / 3600)h" + twoDigits(whole % 3600 / 60) + "m"
    }

    private static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}
