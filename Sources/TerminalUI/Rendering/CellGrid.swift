import SystemSupport

/// A frame: a width × height array of cells that widgets draw into.
///
/// Everything drawn goes through ``put(_:x:y:style:clip:)``, which keeps wide characters
/// consistent (a wide character owns its continuation cell, half-overwritten wide characters
/// are blanked) and refuses anything a terminal would interpret, so no widget can write a
/// control sequence by accident.
struct CellGrid: Equatable, Sendable {
    let width: Int
    let height: Int
    private(set) var cells: [Cell]

    init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = Array(repeating: .blank, count: self.width * self.height)
    }

    var bounds: CellRect { CellRect(x: 0, y: 0, width: width, height: height) }

    subscript(x: Int, y: Int) -> Cell {
        cells[y * width + x]
    }

    /// Fills a rectangle with blank cells of one style.
    mutating func fill(_ rect: CellRect, style: CellStyle) {
        let area = rect.intersection(bounds)
        guard !area.isEmpty else { return }
        for row in area.y..<area.maxY {
            for column in area.x..<area.maxX {
                place(Cell(" ", style: style), x: column, y: row)
            }
        }
    }

    /// Draws one character at (x, y) and returns how many columns it took (0 when nothing fit).
    ///
    /// `clip` is the exclusive right edge for this draw (the grid's width by default). A wide
    /// character that would cross it is replaced by a space, so it never spills into the next
    /// region. Characters a terminal would interpret are drawn as their visible escapes.
    @discardableResult
    mutating func put(_ character: Character, x: Int, y: Int, style: CellStyle, clip: Int? = nil) -> Int {
        let limit = min(clip ?? width, width)
        guard y >= 0, y < height, x >= 0, x < limit else { return 0 }
        guard TerminalSafeText.isSafe(character) else {
            var escaped = ""
            TerminalSafeText.appendEscaped(character, to: &escaped)
            return write(escaped, x: x, y: y, style: style, clip: limit) - x
        }
        let columns = GlyphWidth.columns(of: character)
        switch columns {
        case 0:
            var escaped = ""
            for scalar in character.unicodeScalars { escaped += TerminalSafeText.escape(for: scalar) }
            return write(escaped, x: x, y: y, style: style, clip: limit) - x
        case 1:
            place(Cell(character, style: style), x: x, y: y)
            return 1
        default:
            guard x + 1 < limit else {
                place(Cell(" ", style: style), x: x, y: y)
                return 1
            }
            place(Cell(character, width: 2, style: style), x: x, y: y)
            place(.continuation(style: style), x: x + 1, y: y)
            return 2
        }
    }

    /// Draws a character whose safety and width are already known (a ``DisplayGlyph/glyph(_:width:)``),
    /// without ``put(_:x:y:style:clip:)``'s checks: the editor draws every character on screen
    /// this way in each frame. Nothing is drawn unless all `width` columns fit.
    mutating func putGlyph(_ character: Character, width columns: Int, x: Int, y: Int, style: CellStyle) {
        guard y >= 0, y < height, x >= 0, x + columns <= width else { return }
        if columns == 2 {
            place(Cell(character, width: 2, style: style), x: x, y: y)
            place(.continuation(style: style), x: x + 1, y: y)
        } else {
            place(Cell(character, style: style), x: x, y: y)
        }
    }

    /// Draws text from (x, y) until it ends or reaches `clip`; returns the column after it.
    @discardableResult
    mutating func write(_ text: some StringProtocol, x: Int, y: Int, style: CellStyle, clip: Int? = nil) -> Int {
        let limit = min(clip ?? width, width)
        var column = x
        for character in text {
            guard column < limit else { break }
            let used = put(character, x: column, y: y, style: style, clip: limit)
            if used == 0 { break }
            column += used
        }
        return column
    }

    /// Stores a cell, first blanking whatever half of a wide character it would break.
    private mutating func place(_ cell: Cell, x: Int, y: Int) {
        let index = y * width + x
        // Only the old cell's width is read unless it was part of a wide character, so the
        // common case copies no character.
        let oldWidth = cells[index].width
        if oldWidth == 0, x > 0, !cell.isContinuation {
            cells[index - 1] = Cell(" ", style: cells[index - 1].style)
        }
        if oldWidth == 2, x + 1 < width, cell.width != 2 {
            cells[index + 1] = Cell(" ", style: cells[index].style)
        }
        cells[index] = cell
    }
}
