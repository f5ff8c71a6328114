extension EditorState {
    private static let openers: [Character: Character] = ["{": "}", "[": "]", "(": ")"]
    private static let closers: Set<Character> = ["}", "]", ")"]

    /// Types one character over the selection. In code mode typographic quotes, dashes and
    /// non-breaking spaces become ASCII; a closing bracket typed on a blank line moves back one
    /// indentation level.
    mutating func typeCharacter(_ character: Character) {
        var text = String(character)
        if configuration.codeMode {
            text = CodeSubstitution.apply(to: text)
        }
        if selection.isEmpty, let typed = text.first, Self.closers.contains(typed) {
            let line = buffer.lines[cursor.row]
            let before = line[..<cursor.column]
            if !before.isEmpty, before.allSatisfy({ $0 == " " }) {
                let remove = min(configuration.indentWidth, before.count)
                let start = TextPosition(row: cursor.row, column: cursor.column - remove)
                replace(TextRange(start, cursor), with: text, kind: .typing)
                return
            }
        }
        replace(selection.range, with: text, kind: .typing)
    }

    /// Enter: a new line with the current line's indentation, one level deeper after an
    /// opening bracket; between a pair of brackets the closing one moves to its own line.
    mutating func insertNewline() {
        let range = selection.range
        let line = buffer.lines[range.start.row]
        let before = line[..<range.start.column]
        let indent = String(before.prefix(while: { $0 == " " || $0 == "\t" }))
        let lastTyped = before.last(where: { $0 != " " && $0 != "\t" })
        // Spaces after the cursor would otherwise push the next line's text past its indent.
        var end = range.end
        if range.start.row == range.end.row {
            let after = buffer.lines[end.row]
            while end.column < after.count, after[end.column] == " " {
                end.column += 1
            }
        }
        let following = end.column < buffer.lines[end.row].count ? buffer.lines[end.row][end.column] : nil
        let replaced = TextRange(range.start, end)
        if let lastTyped, let closer = Self.openers[lastTyped] {
            let inner = indent + indentUnit
            if following == closer {
                let row = range.start.row + 1
                replaceAll([(replaced, "\n" + inner + "\n" + indent)], selectionAfter: { _ in
                    Selection(caret: TextPosition(row: row, column: inner.count))
                })
            } else {
                replaceAll([(replaced, "\n" + inner)])
            }
        } else {
            replaceAll([(replaced, "\n" + indent)])
        }
    }

    /// Tab: spaces to the next indentation stop, or every selected line indented one level.
    mutating func indent() {
        let range = selection.range
        guard range.start.row != range.end.row else {
            let line = buffer.lines[cursor.row]
            let column = LineMetrics.displayColumn(of: range.start.column, in: line, tabWidth: configuration.indentWidth)
            let count = configuration.indentWidth - column % configuration.indentWidth
            replaceAll([(range, String(repeating: " ", count: count))])
            return
        }
        let rows = selectedRows(range)
        let unit = indentUnit
        let shift = unit.count
        let anchor = selection.anchor
        let head = selection.head
        replaceAll(rows.map { row in (TextRange(TextPosition(row: row, column: 0), TextPosition(row: row, column: 0)), unit) },
                   selectionAfter: { _ in
                       func moved(_ position: TextPosition) -> TextPosition {
                           guard rows.contains(position.row), position.column > 0 else { return position }
                           return TextPosition(row: position.row, column: position.column + shift)
                       }
                       return Selection(anchor: moved(anchor), head: moved(head))
                   })
    }

    /// Shift-Tab: every selected line (or the cursor's line) one indentation level less.
    mutating func outdent() {
        let range = selection.range
        let rows = selectedRows(range)
        var removals: [Int: Int] = [:]
        var replacements: [(TextRange, String)] = []
        for row in rows {
            let line = buffer.lines[row]
            var count = 0
            if line.first == "\t" {
                count = 1
            } else {
                while count < configuration.indentWidth, count < line.count, line[count] == " " {
                    count += 1
                }
            }
            guard count > 0 else { continue }
            removals[row] = count
            replacements.append((TextRange(TextPosition(row: row, column: 0), TextPosition(row: row, column: count)), ""))
        }
        guard !replacements.isEmpty else {
            message = .info(rows.count == 1 ? "The line has no indentation to remove." : "The lines have no indentation to remove.")
            return
        }
        let anchor = selection.anchor
        let head = selection.head
        replaceAll(replacements, selectionAfter: { _ in
            func moved(_ position: TextPosition) -> TextPosition {
                guard let removed = removals[position.row] else { return position }
                return TextPosition(row: position.row, column: max(0, position.column - removed))
            }
            return Selection(anchor: moved(anchor), head: moved(head))
        })
    }

    /// The rows a line command applies to: those the selection touches, except a last row
    /// the selection only reaches at column 0.
    func selectedRows(_ range: TextRange) -> ClosedRange<Int> {
        var last = range.end.row
        if last > range.start.row, range.end.column == 0 {
            last -= 1
        }
        return range.start.row...last
    }

    /// Backspace: the selection, or the character before the cursor, or back to the previous
    /// indentation stop inside leading spaces, or the line break.
    mutating func deleteBackward() {
        guard selection.isEmpty else {
            replace(selection.range, with: "", kind: .other)
            return
        }
        let position = cursor
        if position.column == 0 {
            guard position.row > 0 else { return }
            let previous = TextPosition(row: position.row - 1, column: buffer.lines[position.row - 1].count)
            replace(TextRange(previous, position), with: "", kind: .deletingBackward)
            return
        }
        let before = buffer.lines[position.row][..<position.column]
        var start = position.column - 1
        if before.allSatisfy({ $0 == " " }) {
            let remainder = position.column % configuration.indentWidth
            start = position.column - (remainder == 0 ? configuration.indentWidth : remainder)
        }
        replace(TextRange(TextPosition(row: position.row, column: max(0, start)), position), with: "", kind: .deletingBackward)
    }

    /// Delete: the selection, or the character after the cursor, or the line break.
    mutating func deleteForward() {
        guard selection.isEmpty else {
            replace(selection.range, with: "", kind: .other)
            return
        }
        let position = cursor
        let line = buffer.lines[position.row]
        let end: TextPosition
        if position.column < line.count {
            end = TextPosition(row: position.row, column: position.column + 1)
        } else if position.row + 1 < buffer.lines.count {
            end = TextPosition(row: position.row + 1, column: 0)
        } else {
            return
        }
        replace(TextRange(position, end), with: "", kind: .deletingForward)
    }

    mutating func deleteWordBackward() {
        guard selection.isEmpty else {
            replace(selection.range, with: "", kind: .other)
            return
        }
        replace(TextRange(wordStart(before: cursor), cursor), with: "", kind: .other)
    }

    mutating func deleteWordForward() {
        guard selection.isEmpty else {
            replace(selection.range, with: "", kind: .other)
            return
        }
        replace(TextRange(cursor, wordEnd(after: cursor)), with: "", kind: .other)
    }

    // MARK: Clipboard

    /// Ctrl-C: the selection, or the whole line when nothing is selected; the text also goes to
    /// the terminal's clipboard.
    mutating func copy() -> [EditorEffect] {
        if selection.isEmpty {
            clipboard = Clipboard(text: String(buffer.lines[cursor.row]) + "\n", isWholeLine: true)
            message = .info("Copied the line.")
        } else {
            clipboard = Clipboard(text: buffer.text(in: selection.range), isWholeLine: false)
            message = .info("Copied.")
        }
        return clipboard.map { [.copyToTerminalClipboard($0.text)] } ?? []
    }

    /// Ctrl-X: the selection, or the whole line when nothing is selected.
    mutating func cut() -> [EditorEffect] {
        if !selection.isEmpty {
            clipboard = Clipboard(text: buffer.text(in: selection.range), isWholeLine: false)
            replace(selection.range, with: "", kind: .other)
        } else {
            removeLines(cursor.row...cursor.row)
        }
        return clipboard.map { [.copyToTerminalClipboard($0.text)] } ?? []
    }

    /// Removes whole lines into the clipboard (as a whole-line clip that Ctrl-V puts back above
    /// the cursor's line).
    mutating func removeLines(_ rows: ClosedRange<Int>) {
        let lastRow = buffer.lines.count - 1
        clipboard = Clipboard(text: buffer.text(in: TextRange(TextPosition(row: rows.lowerBound, column: 0),
                                                               TextPosition(row: rows.upperBound, column: buffer.lines[rows.upperBound].count))) + "\n",
                              isWholeLine: true)
        let range: TextRange
        if rows.upperBound < lastRow {
            range = TextRange(TextPosition(row: rows.lowerBound, column: 0), TextPosition(row: rows.upperBound + 1, column: 0))
        } else if rows.lowerBound > 0 {
            range = TextRange(TextPosition(row: rows.lowerBound - 1, column: buffer.lines[rows.lowerBound - 1].count),
                              TextPosition(row: rows.upperBound, column: buffer.lines[rows.upperBound].count))
        } else {
            range = TextRange(.zero, TextPosition(row: rows.upperBound, column: buffer.lines[rows.upperBound].count))
        }
        let row = min(rows.lowerBound, max(0, lastRow - rows.count))
        replaceAll([(range, "")], selectionAfter: { _ in Selection(caret: TextPosition(row: row, column: 0)) })
    }

    /// Ctrl-V: the clipboard at the cursor; a whole copied line goes above the cursor's line.
    mutating func pasteClipboard() {
        guard let clipboard else {
            message = .info("The clipboard is empty.")
            return
        }
        if clipboard.isWholeLine, selection.isEmpty {
            let position = cursor
            let lineStart = TextPosition(row: position.row, column: 0)
            let addedRows = TextBuffer.splitLines(clipboard.text).count - 1
            replaceAll([(TextRange(lineStart, lineStart), clipboard.text)], selectionAfter: { _ in
                Selection(caret: TextPosition(row: position.row + addedRows, column: position.column))
            })
        } else {
            replace(selection.range, with: clipboard.text, kind: .other)
        }
    }

    /// A bracketed paste: cleaned (line endings, control characters, code-mode substitutions)
    /// and inserted as one undo step, in time linear in its length.
    mutating func insertPaste(_ text: String) {
        let cleaned = PastedText.normalized(text, codeMode: configuration.codeMode)
        guard !cleaned.isEmpty else { return }
        replace(selection.range, with: cleaned, kind: .other)
    }

    mutating func selectAll() {
        selection = Selection(anchor: .zero, head: buffer.endPosition)
        preferredColumn = nil
        history.seal()
    }
}

/// The editor's own clipboard. The terminal offers no portable system clipboard, so cut,
/// copy and paste work within the editor; bracketed paste brings text in from outside.
struct Clipboard: Hashable, Sendable {
    var text: String
    /// Copied or cut without a selection: the whole line, pasted above the cursor's line.
    var isWholeLine: Bool
}
