/// A script the host loaded for the editor: which one it is and its code.
///
/// ```swift
/// let opened = OpenedScript(document: document, code: "document.title")
/// ```
public struct OpenedScript: Hashable, Sendable {
    /// Which script it is.
    public var document: ScriptDocument
    /// The code the editor shows (the script without its metadata block; a file of the user's
    /// own whole).
    public var code: String

    /// Creates a loaded script.
    public init(document: ScriptDocument, code: String) {
        self.document = document
        self.code = code
    }
}
