/// One cell of the screen: a grapheme cluster and its style.
///
/// A wide character (CJK, most emoji) lives in the cell where it starts, with `width` 2; the
/// cell to its right is a continuation with `width` 0 that is never written on its own.
struct Cell: Hashable, Sendable {
    var character: Character
    var width: UInt8
    var style: CellStyle

    init(_ character: Character, width: UInt8 = 1, style: CellStyle = .plain) {
        self.character = character
        self.width = width
        self.style = style
    }

    /// An empty cell in the terminal's default colours.
    static let blank = Cell(" ")

    /// The right half of a wide character.
    static func continuation(style: CellStyle) -> Cell {
        Cell(" ", width: 0, style: style)
    }

    var isContinuation: Bool { width == 0 }
}
