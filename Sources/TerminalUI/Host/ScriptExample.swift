/// A prewritten script offered in the examples menu (Ctrl-E).
///
/// ```swift
/// let example = ScriptExample(name: "word-count", code: "…", summary: "Counts the words on the page.")
/// ```
public struct ScriptExample: Hashable, Sendable {
    /// The name shown in the menu.
    public var name: String
    /// The script that replaces the editor's text when chosen.
    public var code: String
    /// What the example does, shown beside its name.
    public var summary: String?

    /// Creates an example.
    public init(name: String, code: String, summary: String? = nil) {
        self.name = name
        self.code = code
        self.summary = summary
    }
}
