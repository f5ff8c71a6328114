/// A prewritten script offered in the examples menu.
public struct ScriptExample: Hashable, Sendable {
    /// The name shown in the menu.
    public var name: String
    /// The script that replaces the editor's text when chosen.
    public var code: String

    /// Creates an example.
    public init(name: String, code: String) {
        self.name = name
        self.code = code
    }
}
