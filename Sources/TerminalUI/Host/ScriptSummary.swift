/// One entry of the scripts list (Ctrl-O): enough to tell scripts apart, even when two share a
/// name.
///
/// ```swift
/// let entry = ScriptSummary(id: "k3j9x2pq", name: "Word count", detail: "https://*/* · document-idle")
/// ```
public struct ScriptSummary: Hashable, Sendable {
    /// The script's ID, which ``EditorHost/openScript`` receives.
    public var id: String
    /// The script's name.
    public var name: String
    /// A short line shown beside the name: where and when it runs, or its description.
    public var detail: String

    /// Creates a list entry.
    public init(id: String, name: String, detail: String = "") {
        self.id = id
        self.name = name
        self.detail = detail
    }
}
