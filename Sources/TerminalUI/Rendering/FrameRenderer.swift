/// Turns frames into the bytes that update the terminal, writing only what changed.
///
/// The renderer remembers the last frame it produced. Each new frame is compared cell by cell
/// and only differing cells are written, with a cursor move only where the output is not
/// already positioned and an SGR sequence only where the style changes; the result is meant
/// to be written with a single `write`. A frame of another size (a resize) or an
/// ``invalidate()`` clears the screen and draws everything.
struct FrameRenderer: Sendable {
    private var previous: CellGrid?
    private var cursorVisible: Bool?
    private var previousCursor: CursorPlacement?

    init() {}

    /// Forgets the last frame so the next one is drawn in full (after a resize, or when
    /// something else may have written to the terminal).
    mutating func invalidate() {
        previous = nil
        cursorVisible = nil
        previousCursor = nil
    }

    /// The bytes that turn the last frame into `frame` and put the cursor in place.
    mutating func render(_ frame: CellGrid, cursor: CursorPlacement?) -> [UInt8] {
        var output = ""
        var terminalCursor: CursorPlacement?
        // Every frame ends with the style reset, so each one starts from the plain style.
        var currentStyle = CellStyle.plain
        let old: CellGrid?
        if let previous, previous.width == frame.width, previous.height == frame.height {
            old = previous
            terminalCursor = previousCursor
        } else {
            // A full redraw moves the cursor across the whole screen: hide it meanwhile so it
            // does not flicker. Small updates skip this to stay a few bytes long.
            output += ANSI.hideCursor + ANSI.resetStyle + ANSI.clearScreen
            cursorVisible = false
            old = nil
        }

        for y in 0..<frame.height {
            for x in 0..<frame.width {
                let cell = frame[x, y]
                if cell.isContinuation { continue }
                if let old {
                    if old[x, y] == cell { continue }
                } else if cell == .blank {
                    continue
                }
                if terminalCursor != CursorPlacement(x: x, y: y) {
                    output += ANSI.moveCursor(x: x, y: y)
                }
                if currentStyle != cell.style {
                    output += cell.style.sgrSequence
                    currentStyle = cell.style
                }
                output.append(cell.character)
                let next = x + Int(cell.width)
                // At the last column the terminal's cursor is in its "pending wrap" state,
                // so its position is not trusted for the next cell.
                terminalCursor = next < frame.width ? CursorPlacement(x: next, y: y) : nil
            }
        }
        if currentStyle != .plain {
            output += ANSI.resetStyle
        }
        if let cursor {
            if terminalCursor != cursor {
                output += ANSI.moveCursor(x: cursor.x, y: cursor.y)
            }
            if cursorVisible != true {
                output += ANSI.showCursor
                cursorVisible = true
            }
        } else if cursorVisible != false {
            output += ANSI.hideCursor
            cursorVisible = false
        }
        previous = frame
        previousCursor = cursor
        return Array(output.utf8)
    }
}

/// Where the terminal's cursor goes after a frame; `nil` in a frame hides it.
struct CursorPlacement: Hashable, Sendable {
    var x: Int
    var y: Int
}
