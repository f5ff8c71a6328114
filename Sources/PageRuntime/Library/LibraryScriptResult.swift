import UserScripts

/// What happened to one library script run automatically on a page.
public struct LibraryScriptResult: Sendable {
    /// The script.
    public let script: StoredScript
    /// The pattern that matched the page.
    public let pattern: SitePattern
    /// The script's result, or why it could not run (the page moved, it timed out, ...).
    public let outcome: Result<ScriptResult, InjectionError>
    /// The address of the frame the script ran in, matched against its rules; `nil` for the page
    /// itself.
    public let frame: String?

    public init(script: StoredScript, pattern: SitePattern, outcome: Result<ScriptResult, InjectionError>, frame: String? = nil) {
        self.script = script
        self.pattern = pattern
        self.outcome = outcome
        self.frame = frame
    }

    /// Whether the script ran to completion without throwing.
    public var succeeded: Bool {
        if case let .success(result) = outcome { return result.error == nil }
        return false
    }
}
