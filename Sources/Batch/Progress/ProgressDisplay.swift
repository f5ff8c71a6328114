import Foundation
import SystemSupport

/// The progress line a batch shows on standard error, redrawn in place at most a few times a
/// second when standard error is a terminal; and a note, terminal or not, when pages wait for a
/// session. It writes through the function it is given (the executable's standard error).
///
/// ```swift
/// let display = ProgressDisplay(onTerminal: StandardStream.error.isTerminal) { text in
///     StandardStream.error.write(text)
/// }
/// let summary = await runner.run { progress in display.show(progress) }
/// display.finish()
/// ```
public final class ProgressDisplay: @unchecked Sendable {
    private let onTerminal: Bool
    private let write: @Sendable (String) -> Void
    // Guards the two flags below, which makes @unchecked Sendable sound.
    private let lock = NSLock()
    private var lineShown = false
    private var waitNoted = false

    /// - Parameters:
    ///   - onTerminal: Whether the progress line is drawn (only a person reads it).
    ///   - write: Writes text as it is, without adding a line break.
    public init(onTerminal: Bool, write: @escaping @Sendable (String) -> Void) {
        self.onTerminal = onTerminal
        self.write = write
    }

    /// Whether a progress line is drawn: only for a person watching standard error, and only
    /// when the records do not go to that same terminal (a record written after the line would
    /// start in its middle).
    public static func draws(errorIsTerminal: Bool, recordsOnTerminal: Bool) -> Bool {
        errorIsTerminal && !recordsOnTerminal
    }

    /// Shows `progress`: the line redrawn, and the wait noted once when it starts.
    public func show(_ progress: BatchProgress) {
        lock.withLock {
            if progress.waitingForSession > 0, !waitNoted, let reason = progress.waitReason {
                waitNoted = true
                clearLine()
                write("pagescript batch: waiting for a session, with backoff: \(TerminalSafeText.escaped(reason))\n")
            } else if progress.waitingForSession == 0 {
                waitNoted = false
            }
            guard onTerminal else { return }
            write("\r\u{1B}[K" + ProgressLine.render(progress))
            lineShown = true
        }
    }

    /// Clears the progress line, before the summary.
    public func finish() {
        lock.withLock { clearLine() }
    }

    private func clearLine() {
        guard lineShown else { return }
        write("\r\u{1B}[K")
        lineShown = false
    }
}
