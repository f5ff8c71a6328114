import ArgumentParser

extension ExitCode {
    /// The script threw or did not parse.
    static let scriptFailed = ExitCode(1)
    /// Usage or bad input: an unreadable file, an invalid URL.
    static let badInput = ExitCode(2)
    /// The engine is missing or failed to start, or the browser died.
    static let engineFailed = ExitCode(3)
    /// The script or page did not finish in time.
    static let timedOut = ExitCode(4)
}
