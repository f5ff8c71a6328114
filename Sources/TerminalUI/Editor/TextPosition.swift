/// A place in the document: a row and a character (grapheme cluster) offset in that row.
///
/// The editor keeps its cursor in these document coordinates; screen columns are derived
/// from them when drawing, so wide characters and scrolling never move the cursor in the text.
struct TextPosition: Hashable, Comparable, Sendable {
    var row: Int
    var column: Int

    init(row: Int, column: Int) {
        self.row = row
        self.column = column
    }

    static let zero = TextPosition(row: 0, column: 0)

    static func < (lhs: TextPosition, rhs: TextPosition) -> Bool {
        lhs.row != rhs.row ? lhs.row < rhs.row : lhs.column < rhs.column
    }
}

extension TextPosition {
    /// The position after `text` if it were inserted here.
    func advanced(over text: String) -> TextPosition {
        let lines = TextBuffer.splitLines(text)
        if lines.count == 1 {
            return TextPosition(row: row, column: column + lines[0].count)
        }
        return TextPosition(row: row + lines.count - 1, column: lines[lines.count - 1].count)
    }
}

/// A span of the document from `start` up to (not including) `end`, with `start <= end`.
struct TextRange: Hashable, Sendable {
    let start: TextPosition
    let end: TextPosition

    /// The range between two positions in either order.
    init(_ first: TextPosition, _ second: TextPosition) {
        start = min(first, second)
        end = max(first, second)
    }

    var isEmpty: Bool { start == end }
}

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
