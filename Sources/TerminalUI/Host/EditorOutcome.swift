/// How an editing session ended and what it left behind.
public struct EditorOutcome: Hashable, Sendable {
    /// Why the editor ended.
    public enum Reason: Hashable, Sendable {
        /// The user quit (Ctrl-Q).
        case quit
        /// A termination signal (SIGINT, SIGTERM, SIGHUP) arrived; exit with `128 + signal`.
        case signal(Int32)
        /// The host called ``EditorApp/stop(reason:)``, for example because the browser died.
        case stopped(String)
        /// The terminal closed (end of input).
        case inputClosed
    }

    /// The script as it was when the editor ended.
    public var script: String
    /// Whether the script differs from what was last saved (or loaded).
    public var hasUnsavedChanges: Bool
    /// Why the editor ended.
    public var reason: Reason
    /// The name of the named script last opened or saved, if any.
    public var scriptName: String?

    /// Creates an outcome.
    public init(script: String, hasUnsavedChanges: Bool, reason: Reason, scriptName: String? = nil) {
        self.script = script
        self.hasUnsavedChanges = hasUnsavedChanges
        self.reason = reason
        self.scriptName = scriptName
    }
}
