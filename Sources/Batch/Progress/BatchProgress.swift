/// Where a running batch stands, handed to the caller a few times a second and at the end: data
/// only, for the caller to show however it likes (``ProgressLine`` makes a terminal line of it).
///
/// ```swift
/// let summary = await runner.run { progress in
///     print(progress.done, progress.total ?? 0, progress.pagesPerSecond ?? 0)
/// }
/// ```
public struct BatchProgress: Sendable, Equatable {
    /// Records written by this run.
    public var done = 0
    /// Records an earlier run left in the output file (`--resume`).
    public var alreadyDone = 0
    /// The number of entries in the input, when it is a file that could be counted.
    public var total: Int?
    /// This run's records by status.
    public var statusCounts: [RecordStatus: Int] = [:]
    /// Pages being worked on now.
    public var inFlight = 0
    /// Sessions open now.
    public var openSessions = 0
    /// Workers waiting for a session (a full grid, an endpoint that went away).
    public var waitingForSession = 0
    /// Why the last attempt to open a session failed, while workers wait.
    public var waitReason: String?
    /// Pages run again after their session died.
    public var retried = 0
    /// Seconds since the batch started.
    public var elapsed: Double = 0
    /// Records per second over the last few seconds; `nil` until there is enough to tell.
    public var pagesPerSecond: Double?

    public init() {}

    /// This run's records whose status is not `ok`.
    public var failed: Int {
        done - (statusCounts[.ok] ?? 0)
    }

    /// Entries not recorded yet, when the total is known.
    public var remaining: Int? {
        total.map { max(0, $0 - alreadyDone - done) }
    }

    /// Seconds until the last entry is recorded at the current rate, when both are known.
    public var estimatedSecondsLeft: Double? {
        guard let remaining, let pagesPerSecond, pagesPerSecond > 0 else { return nil }
        return Double(remaining) / pagesPerSecond
    }
}
