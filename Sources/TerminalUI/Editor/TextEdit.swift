/// One replacement as it was applied: enough to undo it and to redo it.
struct TextEdit: Hashable, Sendable {
    /// Where the replacement started.
    var start: TextPosition
    /// The end of the replaced range before the edit.
    var removedEnd: TextPosition
    /// The end of the inserted text after the edit.
    var insertedEnd: TextPosition
    var removed: String
    var inserted: String
}
