/// The selection: it runs from `anchor` (where it started) to `head` (the cursor).
///
/// With nothing selected the two are equal. Shift+movement moves only the head.
struct Selection: Hashable, Sendable {
    var anchor: TextPosition
    var head: TextPosition

    init(anchor: TextPosition, head: TextPosition) {
        self.anchor = anchor
        self.head = head
    }

    /// A cursor with nothing selected.
    init(caret: TextPosition) {
        anchor = caret
        head = caret
    }

    var isEmpty: Bool { anchor == head }
    var range: TextRange { TextRange(anchor, head) }
}
