/// How an editing session ended and what it left behind.
///
/// ```swift
/// let outcome = try await app.run()
/// if outcome.hasUnsavedChanges, outcome.reason != .quit { keepRecoveryCopy(outcome.script) }
/// ```
public struct EditorOutcome: Hashable, Sendable {
    /// Why the editor ended.
    public enum Reason: Hashable, Sendable {
        /// The user quit (Ctrl-Q).
        case quit
        /// A termination signal (SIGINT, SIGTERM) arrived; exit with `128 + signal`.
        case signal(Int32)
        /// The host called ``EditorApp/stop(reason:)``, for example because the browser died
        /// and could not be started again.
        case stopped(String)
        /// The terminal went away: a hang-up (SIGHUP, a closed window, a dropped ssh link), or
        /// the end of its input, or an error reading or writing it. Nobody can see the editor
        /// any more, so the text is for a recovery copy.
        case terminalClosed
    }

    /// The script as it was when the editor ended.
    public var script: String
    /// Whether the script differs from what was last saved (or loaded).
    public var hasUnsavedChanges: Bool
    /// Why the editor ended.
    public var reason: Reason
    /// The script that was on screen.
    public var document: ScriptDocument?

    /// Creates an outcome.
    public init(script: String, hasUnsavedChanges: Bool, reason: Reason, document: ScriptDocument? = nil) {
        self.script = script
        self.hasUnsavedChanges = hasUnsavedChanges
        self.reason = reason
        self.document = document
    }
}
