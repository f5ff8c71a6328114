/// Why a benchmark could not be measured.
public enum BenchmarkError: Error, Sendable, CustomStringConvertible {
    /// A program the benchmark ran failed; `output` is the end of what it printed.
    case processFailed(command: String, status: String, output: String)
    /// A program the benchmark ran did not finish in time and was stopped.
    case processTimedOut(command: String, seconds: Double)
    /// The peer (Selenium for Python) cannot be set up; `--skip-peer` measures without it.
    case peerUnavailable(reason: String)
    /// A fixture (a page, a library folder) could not be written.
    case fixture(reason: String)
    /// The real pages (``PythonDocumentation``) are missing and could not be installed; the
    /// real-page rows are left out, and `reason` says what installs them.
    case pagesUnavailable(reason: String)

    public var description: String {
        switch self {
        case let .processFailed(command, status, output):
            "\(command) failed (\(status))" + (output.isEmpty ? "" : ": \(output)")
        case let .processTimedOut(command, seconds):
            "\(command) did not finish within \(Int(seconds)) s"
        case let .peerUnavailable(reason):
            "the peer (Selenium for Python) is unavailable: \(reason); run with --skip-peer to measure without it"
        case let .fixture(reason):
            "could not prepare the benchmark: \(reason)"
        case let .pagesUnavailable(reason):
            "the real pages are unavailable: \(reason)"
        }
    }
}
