/// A save the host refused because the script's file changed, or went away, since the editor
/// read it: another program (an editor, `sed -i`, a sync tool) wrote to it meanwhile.
///
/// The host's save throws it instead of overwriting; the editor then offers to load their
/// version (the editor's text stays one Ctrl-Z away), to keep the editor's text as a new script,
/// or to show both side by side as a diff. Nothing is written until the user chooses.
///
/// ```swift
/// throw ScriptConflict(document: document, path: file.path, change: .changed(theirs: textOnDisk))
/// ```
public struct ScriptConflict: Error, Hashable, Sendable {
    /// What happened to the file.
    public enum Change: Hashable, Sendable {
        /// The file now holds other code: `theirs` is that code, as the editor would show it.
        case changed(theirs: String)
        /// The file was deleted or moved away.
        case deleted
    }

    /// The script the editor tried to save.
    public var document: ScriptDocument
    /// The file, for the message.
    public var path: String
    /// What happened to it.
    public var change: Change

    /// Creates a conflict.
    public init(document: ScriptDocument, path: String, change: Change) {
        self.document = document
        self.path = path
        self.change = change
    }
}
