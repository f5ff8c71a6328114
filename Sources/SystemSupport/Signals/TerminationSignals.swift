import Dispatch
import Foundation

/// Turns SIGINT, SIGTERM and SIGHUP into a callback that runs on a normal queue, outside the
/// signal handler, so that cleanup (stopping browsers, restoring the terminal) can do real work.
///
/// ```swift
/// let signals = TerminationSignals { signal in
///     ChildProcessRegistry.shared.stopAll()
///     exit(128 + signal)
/// }
/// ```
public final class TerminationSignals: @unchecked Sendable {
    /// The signals handled: interrupt (Ctrl-C), terminate, hang-up.
    public static let handled: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    private let sources: [DispatchSourceSignal]
    private let queue = DispatchQueue(label: "pagescript.signals", attributes: .concurrent)

    /// Starts handling the termination signals; `handler` receives the signal number.
    ///
    /// The handler runs once, for the first signal; later signals while it runs kill the remaining
    /// children at once so that a second Ctrl-C never leaves anything behind.
    public init(handler: @escaping @Sendable (Int32) -> Void) {
        let fired = OnceFlag()
        var made: [DispatchSourceSignal] = []
        for number in Self.handled {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                if fired.claim() {
                    TerminationSignals.markReceived(number)
                    handler(number)
                } else {
                    ChildProcessRegistry.shared.killAll()
                }
            }
            source.resume()
            made.append(source)
        }
        sources = made
    }

    /// Ignores hang-ups from now on: after a full-screen program has handled the terminal going
    /// away, a late SIGHUP must not end the process before it has stopped its browser.
    public static func ignoreHangUps() {
        signal(SIGHUP, SIG_IGN)
    }

    private static let receivedLock = NSLock()
    nonisolated(unsafe) private static var receivedSignal: Int32?

    static func markReceived(_ signal: Int32) {
        receivedLock.lock()
        receivedSignal = signal
        receivedLock.unlock()
    }

    /// The termination signal being handled, if one arrived. Work that fails because the handler
    /// is tearing things down should not report that failure: the handler exits for it.
    public static var received: Int32? {
        receivedLock.lock()
        defer { receivedLock.unlock() }
        return receivedSignal
    }

    /// Blocks for good when a termination signal is being handled (its handler ends the process),
    /// and returns at once otherwise.
    public static func yieldToTermination() {
        guard received != nil else { return }
        while true { sleep(60) }
    }

    /// Stops handling the signals and restores their default actions.
    public func cancel() {
        for source in sources { source.cancel() }
        for number in Self.handled { signal(number, SIG_DFL) }
    }
}
