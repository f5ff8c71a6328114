extension EditorState {
    /// Moves the cursor; with `extending` the selection's anchor stays where it was.
    mutating func moveCursor(to position: TextPosition, extending: Bool, keepingPreferredColumn: Bool = false) {
        let target = buffer.clamped(position)
        selection = extending ? Selection(anchor: selection.anchor, head: target) : Selection(caret: target)
        if !keepingPreferredColumn {
            preferredColumn = nil
        }
        history.seal()
    }

    mutating func moveLeft(byWord: Bool, extending: Bool) {
        if !extending, !selection.isEmpty {
            moveCursor(to: selection.range.start, extending: false)
            return
        }
        if byWord {
            moveCursor(to: wordStart(before: cursor), extending: extending)
        } else if cursor.column > 0 {
            moveCursor(to: TextPosition(row: cursor.row, column: cursor.column - 1), extending: extending)
        } else if cursor.row > 0 {
            moveCursor(to: TextPosition(row: cursor.row - 1, column: buffer.lines[cursor.row - 1].count), extending: extending)
        }
    }

    mutating func moveRight(byWord: Bool, extending: Bool) {
        if !extending, !selection.isEmpty {
            moveCursor(to: selection.range.end, extending: false)
            return
        }
        if byWord {
            moveCursor(to: wordEnd(after: cursor), extending: extending)
        } else if cursor.column < buffer.lines[cursor.row].count {
            moveCursor(to: TextPosition(row: cursor.row, column: cursor.column + 1), extending: extending)
        } else if cursor.row + 1 < buffer.lines.count {
            moveCursor(to: TextPosition(row: cursor.row + 1, column: 0), extending: extending)
        }
    }

    /// Up and down keep the display column the cursor started from, so moving through a short
    /// line or a line of wide characters does not drift.
    mutating func moveVertically(by rows: Int, extending: Bool) {
        let tabWidth = configuration.indentWidth
        let goal = preferredColumn
            ?? LineMetrics.displayColumn(of: cursor.column, in: buffer.lines[cursor.row], tabWidth: tabWidth)
        let target = cursor.row + rows
        if target < 0 {
            moveCursor(to: .zero, extending: extending)
            return
        }
        if target >= buffer.lines.count {
            moveCursor(to: buffer.endPosition, extending: extending)
            return
        }
        let column = LineMetrics.column(atDisplayColumn: goal, in: buffer.lines[target], tabWidth: tabWidth)
        moveCursor(to: TextPosition(row: target, column: column), extending: extending, keepingPreferredColumn: true)
        preferredColumn = goal
    }

    /// Page Up/Down: the cursor and the view move together by a screen less one line.
    mutating func movePage(by direction: Int, extending: Bool) {
        let page = max(1, layout.visibleTextRows - 1)
        let lastTop = max(0, buffer.lines.count - 1)
        viewport.top = min(max(0, viewport.top + direction * page), lastTop)
        moveVertically(by: direction * page, extending: extending)
    }

    /// Home goes to the first non-blank character, and from there to column 0.
    mutating func moveToLineStart(extending: Bool) {
        let line = buffer.lines[cursor.row]
        let firstText = line.firstIndex(where: { $0 != " " && $0 != "\t" }) ?? line.count
        let target = cursor.column == firstText ? 0 : firstText
        moveCursor(to: TextPosition(row: cursor.row, column: target), extending: extending)
    }

    // MARK: Words

    enum CharacterClass {
        case space
        case word
        case punctuation
    }

    static func characterClass(_ character: Character) -> CharacterClass {
        if character.isWhitespace { return .space }
        if character.isLetter || character.isNumber || character == "_" || character == "$" { return .word }
        return .punctuation
    }

    /// The start of the word before `position` (skipping spaces), or the end of the previous
    /// line when `position` is at a line's start.
    func wordStart(before position: TextPosition) -> TextPosition {
        let line = buffer.lines[position.row]
        if position.column == 0 {
            guard position.row > 0 else { return position }
            return TextPosition(row: position.row - 1, column: buffer.lines[position.row - 1].count)
        }
        var index = min(position.column, line.count)
        while index > 0, Self.characterClass(line[index - 1]) == .space {
            index -= 1
        }
        guard index > 0 else { return TextPosition(row: position.row, column: 0) }
        let kind = Self.characterClass(line[index - 1])
        while index > 0, Self.characterClass(line[index - 1]) == kind {
            index -= 1
        }
        return TextPosition(row: position.row, column: index)
    }

    /// The end of the word after `position` (skipping spaces), or the start of the next line
    /// when `position` is at a line's end.
    func wordEnd(after position: TextPosition) -> TextPosition {
        let line = buffer.lines[position.row]
        if position.column >= line.count {
            guard position.row + 1 < buffer.lines.count else { return position }
            return TextPosition(row: position.row + 1, column: 0)
        }
        var index = position.column
        while index < line.count, Self.characterClass(line[index]) == .space {
            index += 1
        }
        guard index < line.count else { return TextPosition(row: position.row, column: line.count) }
        let kind = Self.characterClass(line[index])
        while index < line.count, Self.characterClass(line[index]) == kind {
            index += 1
        }
        return TextPosition(row: position.row, column: index)
    }
}
