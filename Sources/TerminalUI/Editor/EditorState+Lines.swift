extension EditorState {
    // MARK: Whole lines

    /// Ctrl-K: the line, or every line the selection touches, goes into the clipboard.
    mutating func deleteLines() {
        let rows = selectedRows(selection.range)
        removeLines(rows)
        message = .info(rows.count == 1 ? "Deleted the line; Ctrl-V puts it back." : "Deleted \(rows.count) lines; Ctrl-V puts them back.")
    }

    /// Ctrl-D: a copy of the line (or of every line the selection touches) below it; the cursor
    /// and the selection move onto the copy.
    mutating func duplicate() {
        let rows = selectedRows(selection.range)
        let lastColumn = buffer.lines[rows.upperBound].count
        let block = buffer.text(in: TextRange(TextPosition(row: rows.lowerBound, column: 0), TextPosition(row: rows.upperBound, column: lastColumn)))
        let end = TextPosition(row: rows.upperBound, column: lastColumn)
        let shift = rows.count
        let anchor = selection.anchor
        let head = selection.head
        replaceAll([(TextRange(end, end), "\n" + block)], selectionAfter: { _ in
            Selection(anchor: TextPosition(row: anchor.row + shift, column: anchor.column),
                      head: TextPosition(row: head.row + shift, column: head.column))
        })
    }

    /// Alt-↑ and Alt-↓: the line (or the selected lines) changes places with the line above or
    /// below; the selection moves with it.
    mutating func moveLines(by direction: Int) {
        let rows = selectedRows(selection.range)
        let lastRow = buffer.lines.count - 1
        if direction < 0, rows.lowerBound == 0 {
            message = .info("Already the first line.")
            return
        }
        if direction > 0, rows.upperBound >= lastRow {
            message = .info("Already the last line.")
            return
        }
        let block = buffer.text(in: TextRange(TextPosition(row: rows.lowerBound, column: 0),
                                              TextPosition(row: rows.upperBound, column: buffer.lines[rows.upperBound].count)))
        let range: TextRange
        let replacement: String
        if direction < 0 {
            let above = String(buffer.lines[rows.lowerBound - 1])
            range = TextRange(TextPosition(row: rows.lowerBound - 1, column: 0),
                              TextPosition(row: rows.upperBound, column: buffer.lines[rows.upperBound].count))
            replacement = block + "\n" + above
        } else {
            let below = String(buffer.lines[rows.upperBound + 1])
            range = TextRange(TextPosition(row: rows.lowerBound, column: 0),
                              TextPosition(row: rows.upperBound + 1, column: buffer.lines[rows.upperBound + 1].count))
            replacement = below + "\n" + block
        }
        let anchor = selection.anchor
        let head = selection.head
        replaceAll([(range, replacement)], selectionAfter: { _ in
            Selection(anchor: TextPosition(row: anchor.row + direction, column: anchor.column),
                      head: TextPosition(row: head.row + direction, column: head.column))
        })
    }

    /// Ctrl-/: comments out the line (or the selected lines) with `// ` at their common
    /// indentation, or, when every non-blank one is commented already, removes the comment marks.
    mutating func toggleComment() {
        let rows = selectedRows(selection.range)
        let filled = rows.filter { row in buffer.lines[row].contains { !$0.isWhitespace } }
        guard !filled.isEmpty else {
            message = .info(rows.count == 1 ? "Nothing to comment: the line is blank." : "Nothing to comment: the lines are blank.")
            return
        }
        func indentation(_ row: Int) -> Int {
            buffer.lines[row].prefix { $0 == " " || $0 == "\t" }.count
        }
        let isCommented = filled.allSatisfy { row in
            let line = buffer.lines[row]
            let start = indentation(row)
            return line.count >= start + 2 && line[start] == "/" && line[start + 1] == "/"
        }
        var changes: [Int: (column: Int, delta: Int)] = [:]
        var replacements: [(TextRange, String)] = []
        if isCommented {
            for row in filled {
                let start = indentation(row)
                let line = buffer.lines[row]
                let length = line.count > start + 2 && line[start + 2] == " " ? 3 : 2
                changes[row] = (start, -length)
                replacements.append((TextRange(TextPosition(row: row, column: start), TextPosition(row: row, column: start + length)), ""))
            }
        } else {
            let column = filled.map(indentation).min() ?? 0
            for row in filled {
                changes[row] = (column, 3)
                let position = TextPosition(row: row, column: column)
                replacements.append((TextRange(position, position), "// "))
            }
        }
        let anchor = selection.anchor
        let head = selection.head
        replaceAll(replacements, selectionAfter: { _ in
            func moved(_ position: TextPosition) -> TextPosition {
                guard let change = changes[position.row], position.column > change.column else { return position }
                return TextPosition(row: position.row, column: max(change.column, position.column + change.delta))
            }
            return Selection(anchor: moved(anchor), head: moved(head))
        })
    }

    // MARK: Selecting

    /// Alt-W: the word at the cursor (or the next one on the line); pressed again, the selection
    /// grows to the end of the next word, over the punctuation between (`a.b` whole).
    mutating func selectWord(growing: Bool) {
        if growing, !selection.isEmpty {
            var end = wordEnd(after: selection.head)
            while end != buffer.endPosition, !Self.endsWord(at: end, in: buffer.lines) {
                end = wordEnd(after: end)
            }
            selection = Selection(anchor: selection.anchor, head: end)
            history.seal()
            return
        }
        let line = buffer.lines[cursor.row]
        var start = cursor.column
        var end = cursor.column
        let isWord = { (index: Int) in Self.characterClass(line[index]) == .word }
        if start < line.count, isWord(start) || (start > 0 && isWord(start - 1)) {
            if !(start < line.count && isWord(start)) { start -= 1; end -= 1 }
            while start > 0, isWord(start - 1) { start -= 1 }
            while end < line.count, isWord(end) { end += 1 }
        } else if start > 0, start == line.count, isWord(start - 1) {
            while start > 0, isWord(start - 1) { start -= 1 }
        } else {
            while start < line.count, !isWord(start) { start += 1 }
            end = start
            while end < line.count, isWord(end) { end += 1 }
        }
        guard start < end else {
            message = .info("No word here to select.")
            return
        }
        selection = Selection(anchor: TextPosition(row: cursor.row, column: start), head: TextPosition(row: cursor.row, column: end))
        preferredColumn = nil
        history.seal()
    }

    /// Whether the character before `position` on its line is part of a word.
    private static func endsWord(at position: TextPosition, in lines: [[Character]]) -> Bool {
        position.column > 0 && characterClass(lines[position.row][position.column - 1]) == .word
    }

    /// Ctrl-L: the whole line with its line break; pressed again, the next line too.
    mutating func selectLine(growing: Bool) {
        let lastRow = buffer.lines.count - 1
        func lineEnd(after row: Int) -> TextPosition {
            row < lastRow ? TextPosition(row: row + 1, column: 0) : TextPosition(row: row, column: buffer.lines[row].count)
        }
        if growing, !selection.isEmpty {
            selection = Selection(anchor: selection.anchor, head: lineEnd(after: selection.head.row))
        } else {
            selection = Selection(anchor: TextPosition(row: cursor.row, column: 0), head: lineEnd(after: cursor.row))
        }
        preferredColumn = nil
        history.seal()
    }
}
