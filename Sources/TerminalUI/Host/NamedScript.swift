/// A script saved under a name, with where and when it runs.
public struct NamedScript: Hashable, Sendable {
    /// The name the user gave it.
    public var name: String
    /// The script's source.
    public var code: String
    /// Match patterns (such as `https://*.example.com/*`) of the pages it runs on.
    public var matchPatterns: [String]
    /// When it runs, one of ``ScriptFormSettings/runAtChoices`` (such as `document-idle`).
    public var runAt: String

    /// Creates a named script.
    public init(name: String, code: String, matchPatterns: [String], runAt: String) {
        self.name = name
        self.code = code
        self.matchPatterns = matchPatterns
        self.runAt = runAt
    }
}
