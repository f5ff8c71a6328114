/// The document: lines of grapheme clusters.
///
/// Lines are arrays of `Character` so that moving the cursor, measuring and slicing are by
/// index, not by walking a `String`. An edit replaces a range with text in time proportional
/// to the text and the lines it touches, which keeps a 1 MB paste linear.
struct TextBuffer: Equatable, Sendable {
    /// Never empty: an empty document has one empty line.
    private(set) var lines: [[Character]]

    init(_ text: String = "") {
        lines = Self.splitLines(text)
    }

    /// The document as text, lines joined by "\n".
    var text: String {
        var result = ""
        result.reserveCapacity(lines.reduce(lines.count) { $0 + $1.count })
        for (row, line) in lines.enumerated() {
            if row > 0 { result.append("\n") }
            result.append(contentsOf: line)
        }
        return result
    }

    var isEmpty: Bool { lines.count == 1 && lines[0].isEmpty }

    var endPosition: TextPosition {
        TextPosition(row: lines.count - 1, column: lines[lines.count - 1].count)
    }

    /// The nearest valid position.
    func clamped(_ position: TextPosition) -> TextPosition {
        let row = min(max(0, position.row), lines.count - 1)
        return TextPosition(row: row, column: min(max(0, position.column), lines[row].count))
    }

    /// The text between two positions.
    func text(in range: TextRange) -> String {
        let start = clamped(range.start)
        let end = clamped(range.end)
        if start.row == end.row {
            return String(lines[start.row][start.column..<end.column])
        }
        var result = String(lines[start.row][start.column...])
        for row in start.row + 1..<end.row {
            result.append("\n")
            result.append(contentsOf: lines[row])
        }
        result.append("\n")
        result.append(contentsOf: lines[end.row][..<end.column])
        return result
    }

    /// Replaces a range with text and returns the position just after the inserted text.
    ///
    /// Grapheme clusters are re-formed where the new text meets the old, so a combining mark
    /// or a zero-width joiner typed after a character joins it, as it would in a `String`.
    @discardableResult
    mutating func replace(_ range: TextRange, with text: String) -> TextPosition {
        let start = clamped(range.start)
        let end = clamped(range.end)
        var inserted = Self.splitLines(text)
        let lastIndex = inserted.count - 1
        var endPosition: TextPosition
        if lastIndex == 0, start.row == end.row {
            // Typing within a line edits it in place instead of rebuilding it, which matters
            // when the line is a megabyte of minified code.
            lines[start.row].replaceSubrange(start.column..<end.column, with: inserted[0])
            endPosition = TextPosition(row: start.row, column: start.column + inserted[0].count)
        } else {
            let prefix = lines[start.row][..<start.column]
            let suffix = lines[end.row][end.column...]
            inserted[0].insert(contentsOf: prefix, at: 0)
            endPosition = TextPosition(row: start.row + lastIndex, column: inserted[lastIndex].count)
            inserted[lastIndex].append(contentsOf: suffix)
            lines.replaceSubrange(start.row...end.row, with: inserted)
        }

        let merged = reformClusters(at: start)
        if merged > 0, endPosition.row == start.row {
            endPosition.column -= merged
        }
        reformClusters(at: endPosition)
        return clamped(endPosition)
    }

    /// Re-segments the two characters around a boundary; returns how many characters the
    /// boundary's left side lost by merging.
    @discardableResult
    private mutating func reformClusters(at position: TextPosition) -> Int {
        let row = position.row
        guard row < lines.count, position.column > 0, position.column < lines[row].count else { return 0 }
        let window = (position.column - 1)..<(position.column + 1)
        let reformed = Array(String(lines[row][window]))
        guard reformed.count != window.count else { return 0 }
        lines[row].replaceSubrange(window, with: reformed)
        return window.count - reformed.count
    }

    /// Splits text into lines at "\n", "\r\n" and "\r".
    static func splitLines(_ text: String) -> [[Character]] {
        var result: [[Character]] = []
        var current: [Character] = []
        for character in text {
            if character == "\n" || character == "\r\n" || character == "\r" {
                result.append(current)
                current = []
            } else {
                current.append(character)
            }
        }
        result.append(current)
        return result
    }
}
