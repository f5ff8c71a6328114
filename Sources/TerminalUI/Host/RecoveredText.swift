/// Unsaved text an earlier editing session could not give back, kept in a file of its own, that
/// the editor offers to bring back when it starts: ``EditorApp``'s `recovered`.
///
/// The editor asks first (`y` restores it as unsaved changes, `n` or Esc leaves it), and never
/// removes the file: it says where the file is, for the user to remove when done with it.
///
/// ```swift
/// let recovered = RecoveredText(text: kept, file: "/home/me/.local/share/pagescript/scripts/.recovery/example-com-20250101-120000.js",
///                               kept: "1 Jan 2025, 12:00")
/// ```
public struct RecoveredText: Hashable, Sendable {
    /// The text that was kept.
    public var text: String
    /// Where it is kept, as the user would type it.
    public var file: String
    /// When it was kept, in words for the status line.
    public var kept: String

    /// Creates an offer of kept text.
    public init(text: String, file: String, kept: String) {
        self.text = text
        self.file = file
        self.kept = kept
    }
}
