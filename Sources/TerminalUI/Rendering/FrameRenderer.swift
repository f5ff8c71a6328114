/// Turns frames into the bytes that update the terminal, writing only what changed.
///
/// The renderer remembers the last frame it produced. Each new frame is compared cell by cell
/// and only differing cells are written, with a cursor move only where the output is not
/// already positioned and an SGR sequence only where the style changes; the result is meant
/// to be written with a single `write`. A frame of another size (a resize) or an
/// ``invalidate()`` clears the screen and draws everything.
///
/// Without colours (see `TerminalColors`) each style is written as its attributes alone, a
/// background becoming reverse video (``CellStyle/withoutColors``), so that selections, matches
/// and bars stay visible.
struct FrameRenderer: Sendable {
    private let colors: Bool
    private var previous: CellGrid?
    private var cursorVisible: Bool?
    private var previousCursor: CursorPlacement?

    /// - Parameter colors: Whether styles are written with their colours.
    init(colors: Bool = true) {
        self.colors = colors
    }

    /// Forgets the last frame so the next one is drawn in full (after a resize, or when
    /// something else may have written to the terminal).
    mutating func invalidate() {
        previous = nil
        cursorVisible = nil
        previousCursor = nil
    }

    /// The bytes that turn the last frame into `frame` and put the cursor in place.
    ///
    /// The bytes are written straight into one buffer (no strings in between), and the cells are
    /// compared through unchecked buffers: a frame after a jump rewrites most of the screen, and
    /// this loop is then most of what a keystroke costs.
    mutating func render(_ frame: CellGrid, cursor: CursorPlacement?) -> [UInt8] {
        var output: [UInt8] = []
        var terminalCursor: CursorPlacement?
        // Every frame ends with the style reset, so each one starts from the plain style.
        var currentStyle = CellStyle.plain
        let old: CellGrid?
        if let previous, previous.width == frame.width, previous.height == frame.height {
            old = previous
            terminalCursor = previousCursor
            output.reserveCapacity(256)
        } else {
            // A full redraw moves the cursor across the whole screen: hide it meanwhile so it
            // does not flicker. Small updates skip this to stay a few bytes long.
            output.reserveCapacity(frame.width * frame.height * 2)
            output.append(contentsOf: (ANSI.hideCursor + ANSI.resetStyle + ANSI.clearScreen).utf8)
            cursorVisible = false
            old = nil
        }

        let width = frame.width
        frame.cells.withUnsafeBufferPointer { cells in
            (old?.cells ?? []).withUnsafeBufferPointer { oldCells in
                for y in 0..<frame.height {
                    for x in 0..<width {
                        let index = y * width + x
                        let cell = cells[index]
                        if cell.isContinuation { continue }
                        if old != nil {
                            if oldCells[index] == cell { continue }
                        } else if cell == .blank {
                            continue
                        }
                        if terminalCursor != CursorPlacement(x: x, y: y) {
                            ANSI.appendMoveCursor(x: x, y: y, to: &output)
                        }
                        if currentStyle != cell.style {
                            (colors ? cell.style : cell.style.withoutColors).appendSGRSequence(to: &output)
                            currentStyle = cell.style
                        }
                        if let byte = cell.character.singleByte {
                            output.append(byte)
                        } else {
                            output.append(contentsOf: cell.character.utf8)
                        }
                        let next = x + Int(cell.width)
                        // At the last column the terminal's cursor is in its "pending wrap"
                        // state, so its position is not trusted for the next cell.
                        terminalCursor = next < width ? CursorPlacement(x: next, y: y) : nil
                    }
                }
            }
        }
        if currentStyle != .plain {
            output.append(contentsOf: ANSI.resetStyle.utf8)
        }
        if let cursor {
            if terminalCursor != cursor {
                ANSI.appendMoveCursor(x: cursor.x, y: cursor.y, to: &output)
            }
            if cursorVisible != true {
                output.append(contentsOf: ANSI.showCursor.utf8)
                cursorVisible = true
            }
        } else if cursorVisible != false {
            output.append(contentsOf: ANSI.hideCursor.utf8)
            cursorVisible = false
        }
        previous = frame
        previousCursor = cursor
        return output
    }
}

/// Where the terminal's cursor goes after a frame; `nil` in a frame hides it.
struct CursorPlacement: Hashable, Sendable {
    var x: Int
    var y: Int
}
