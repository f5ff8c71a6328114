/// Why a batch ended.
public enum BatchEnding: Sendable, Equatable {
    /// Every entry of the input has a record.
    case completed
    /// A stop was requested (a signal): pages that could not finish within the grace were left
    /// for `--resume`.
    case stopped(signal: Int32?)
    /// Not a single session could be opened.
    case noSession(reason: String)
    /// Sessions had been opened, but none could be had for the whole of `--session-wait`.
    case sessionsLost(reason: String)
    /// The input, the output or PageScript itself failed.
    case failed(BatchFailure)
}
