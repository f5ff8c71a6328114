/// A group of edits that one undo reverts, with the selections to restore around it.
struct UndoStep: Hashable, Sendable {
    /// Identifies the document state after this step; see ``UndoHistory/revision``. A step
    /// that grows by coalescing gets a new one, since the text it leads to changed.
    var id: Int
    var kind: EditKind
    var edits: [TextEdit]
    var selectionBefore: Selection
    var selectionAfter: Selection

    /// The bytes of text held for undo, to keep the history within its memory budget.
    var storedSize: Int {
        edits.reduce(0) { $0 + $1.removed.utf8.count + $1.inserted.utf8.count }
    }
}
