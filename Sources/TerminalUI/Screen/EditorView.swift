/// Draws the document: line-number gutter, syntax colours, search matches, selection,
/// horizontal scrolling, and the placeholder when the document is empty.
///
/// Columns come from ``DisplayGlyph``, the same source the cursor uses, so what is drawn and
/// where the cursor lands agree for tabs, wide characters and escaped controls. A wide
/// character cut by the left or right edge is drawn as blank cells rather than half a glyph.
enum EditorView {
    static let gutterStyle = CellStyle(foreground: .brightBlack)
    static let currentLineNumberStyle = CellStyle(foreground: .yellow, attributes: .bold)
    static let selectionBackground = TerminalColor.blue
    static let escapeStyle = CellStyle(foreground: .red, attributes: .reverse)
    static let placeholderStyle = CellStyle(foreground: .brightBlack, attributes: .italic)
    static let matchBackground = TerminalColor.yellow

    /// Draws rows `viewport.top...` into `layout.editor`; returns the cursor's screen position
    /// when it is visible.
    static func draw(into grid: inout CellGrid, layout: EditorLayout, state: EditorState) -> CursorPlacement? {
        let area = layout.textArea
        let viewport = state.viewport
        let tabWidth = state.configuration.indentWidth
        let lines = state.lines
        let selected = state.selection.isEmpty ? nil : state.selection.range
        let cursor = state.cursor

        for screenRow in 0..<layout.editor.height {
            let row = viewport.top + screenRow
            let y = layout.editor.y + screenRow
            guard row < lines.count else { break }
            if layout.gutterWidth > 0 {
                let number = String(row + 1)
                let style = row == cursor.row ? currentLineNumberStyle : gutterStyle
                let x = layout.editor.x + layout.gutterWidth - 1 - number.count
                grid.write(number, x: max(layout.editor.x, x), y: y, style: style, clip: layout.editor.x + layout.gutterWidth - 1)
            }
            let tokens = state.highlighter.tokens(forRow: row, in: lines)
            drawLine(lines[row], row: row, tokens: tokens, selected: selected, matches: state.searchHighlights[row] ?? [],
                     into: &grid, area: area, y: y, left: viewport.left, tabWidth: tabWidth)
        }

        if state.buffer.isEmpty {
            grid.write(state.configuration.placeholder, x: area.x + 1, y: area.y, style: placeholderStyle, clip: area.maxX)
        }

        let line = lines[cursor.row]
        let column = LineMetrics.displayColumn(of: cursor.column, in: line, tabWidth: tabWidth) - viewport.left
        let screenRow = cursor.row - viewport.top
        guard column >= 0, column < area.width, screenRow >= 0, screenRow < layout.visibleTextRows else { return nil }
        return CursorPlacement(x: area.x + column, y: area.y + screenRow)
    }

    private static func drawLine(_ line: [Character], row: Int, tokens: [SyntaxToken], selected: TextRange?, matches: [Range<Int>],
                                 into grid: inout CellGrid, area: CellRect, y: Int, left: Int, tabWidth: Int) {
        let right = left + area.width
        var selectedColumns = 0..<0
        var selectsLineBreak = false
        if let selected, selected.start.row <= row, row <= selected.end.row {
            let start = selected.start.row == row ? selected.start.column : 0
            let end = selected.end.row == row ? selected.end.column : line.count
            selectedColumns = start..<max(start, end)
            selectsLineBreak = selected.end.row > row
        }
        // Skip what is scrolled off to the left with as little work as possible: a long line
        // can have a megabyte before the visible part.
        var first = 0
        var display = 0
        while first < line.count {
            let width = DisplayGlyph(line[first], atColumn: display, tabWidth: tabWidth).width
            if display + width > left { break }
            display += width
            first += 1
        }
        var tokenIndex = 0
        var matchIndex = 0
        for index in first..<line.count {
            guard display < right else { break }
            let glyph = DisplayGlyph(line[index], atColumn: display, tabWidth: tabWidth)
            let width = glyph.width
            defer { display += width }

            while tokenIndex < tokens.count, tokens[tokenIndex].range.upperBound <= index {
                tokenIndex += 1
            }
            var style = CellStyle.plain
            if tokenIndex < tokens.count, tokens[tokenIndex].range.contains(index) {
                style = SyntaxTheme.style(for: tokens[tokenIndex].kind)
            }
            if case .escaped = glyph {
                style = escapeStyle
            }
            while matchIndex < matches.count, matches[matchIndex].upperBound <= index {
                matchIndex += 1
            }
            if matchIndex < matches.count, matches[matchIndex].contains(index) {
                style = CellStyle(foreground: .black, background: matchBackground)
            }
            if selectedColumns.contains(index) {
                style = style.withBackground(selectionBackground)
            }
            let x = area.x + display - left
            switch glyph {
            case .glyph(let shown, let glyphWidth):
                if display < left || display + glyphWidth > right {
                    // Cut by an edge: blank the visible part instead of drawing half a glyph.
                    for column in max(display, left)..<min(display + glyphWidth, right) {
                        grid.put(" ", x: area.x + column - left, y: y, style: style)
                    }
                } else {
                    grid.putGlyph(shown, width: glyphWidth, x: x, y: y, style: style)
                }
            case .tab:
                for column in max(display, left)..<min(display + width, right) {
                    grid.put(" ", x: area.x + column - left, y: y, style: style)
                }
            case .escaped(let text):
                for (offset, piece) in text.enumerated() {
                    let column = display + offset
                    guard column >= left, column < right else { continue }
                    grid.put(piece, x: area.x + column - left, y: y, style: style)
                }
            }
        }
        if selectsLineBreak, display >= left, display < right {
            grid.put(" ", x: area.x + display - left, y: y, style: CellStyle(background: selectionBackground))
        }
    }
}
