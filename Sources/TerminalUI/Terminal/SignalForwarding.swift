import SystemSupport

/// Installs handlers that forward signals into a ``SignalPipe``, and puts the previous
/// handlers back afterwards.
///
/// The handler itself only writes the signal number to the pipe (async-signal-safe). A second
/// termination signal while the first is still being handled means the program is not
/// responding: the handler then restores the terminal itself and lets the signal take its
/// default course, so the user is never left with a raw terminal.
final class SignalForwarding: Sendable {
    private let previous: [(signal: Int32, handler: SignalHandler?)]

    typealias SignalHandler = @convention(c) (Int32) -> Void

    /// Where the handler writes; set before any handler is installed.
    nonisolated(unsafe) private static var pipeWriteEnd: Int32 = -1
    nonisolated(unsafe) private static var terminationCount: Int32 = 0

    init(signals: [Int32], pipe: SignalPipe) {
        Self.pipeWriteEnd = pipe.writeEnd
        Self.terminationCount = 0
        var previous: [(Int32, SignalHandler?)] = []
        for number in signals {
            previous.append((number, signal(number, Self.handler)))
        }
        self.previous = previous
    }

    /// Puts back the handlers that were there before.
    func uninstall() {
        for (number, handler) in previous {
            _ = signal(number, handler)
        }
    }

    private static let handler: SignalHandler = { number in
        let savedErrno = errno
        // A second Ctrl-C or SIGTERM means "out now"; a hang-up often comes twice (the terminal's
        // and its owner's), and the editor must still save a recovery copy and stop the browser.
        if number != SIGWINCH, number != SIGHUP {
            SignalForwarding.terminationCount += 1
            if SignalForwarding.terminationCount > 1 {
                RawMode.restoreAfterSignal()
                _ = signal(number, SIG_DFL)
                _ = raise(number)
            }
        }
        var byte = UInt8(truncatingIfNeeded: number)
        _ = write(SignalForwarding.pipeWriteEnd, &byte, 1)
        errno = savedErrno
    }
}
