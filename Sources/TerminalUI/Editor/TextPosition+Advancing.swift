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
