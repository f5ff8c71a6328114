/// Why a child process could not be started or did not become ready.
public enum ChildProcessError: Error, Equatable, CustomStringConvertible {
    /// `posix_spawn` refused to start the program.
    case launchFailed(executable: String, reason: String)
    /// The program exited before it was ready.
    case exitedEarly(executable: String, status: Int32, log: String)
    /// The program did not become ready in time.
    case notReady(executable: String, seconds: Double)

    public var description: String {
        switch self {
        case let .launchFailed(executable, reason):
            "could not start \(executable): \(reason)"
        case let .exitedEarly(executable, status, log):
            "\(executable) exited (status \(status)) before it was ready" + (log.isEmpty ? "" : ": \(log)")
        case let .notReady(executable, seconds):
            "\(executable) was not ready after \(seconds) s"
        }
    }
}
