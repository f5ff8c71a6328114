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
