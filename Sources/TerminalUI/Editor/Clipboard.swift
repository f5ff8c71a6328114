/// The editor's own clipboard. The terminal offers no portable system clipboard, so cut,
/// copy and paste work within the editor; bracketed paste brings text in from outside.
struct Clipboard: Hashable, Sendable {
    var text: String
    /// Copied or cut without a selection: the whole line, pasted above the cursor's line.
    var isWholeLine: Bool
}
