/// A new script to save under a name (Ctrl-N, or keeping the editor's text after a conflict),
/// with where and when it runs.
///
/// ```swift
/// let script = NamedScript(name: "Word count", code: "document.body.innerText.length",
///                          matchPatterns: ["https://*.example.com/*"], runAt: "document-idle")
/// let onDemand = NamedScript(name: "Tidy", code: "tidy()", matchPatterns: [], runAt: nil)
/// ```
public struct NamedScript: Hashable, Sendable {
    /// The name the user gave it.
    public var name: String
    /// The script's source.
    public var code: String
    /// Match patterns (such as `https://*.example.com/*`) of the pages it runs on; empty for a
    /// script that runs only on demand.
    public var matchPatterns: [String]
    /// Patterns of pages it must not run on (`@exclude-match`).
    public var excludePatterns: [String]
    /// When it runs, one of ``ScriptFormSettings/runAtChoices`` (such as `document-idle`), or
    /// `nil` for a script that runs only when asked.
    public var runAt: String?

    /// Creates a named script.
    public init(name: String, code: String, matchPatterns: [String], excludePatterns: [String] = [], runAt: String?) {
        self.name = name
        self.code = code
        self.matchPatterns = matchPatterns
        self.excludePatterns = excludePatterns
        self.runAt = runAt
    }
}
