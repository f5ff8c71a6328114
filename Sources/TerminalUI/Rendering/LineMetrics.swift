/// Converts between character offsets and display columns within one line.
enum LineMetrics {
    /// The display column where the character at `column` starts (or the line's width when
    /// `column` is at its end).
    static func displayColumn(of column: Int, in line: [Character], tabWidth: Int) -> Int {
        var display = 0
        for index in 0..<min(column, line.count) {
            display += DisplayGlyph(line[index], atColumn: display, tabWidth: tabWidth).width
        }
        return display
    }

    /// The character offset whose glyph covers display column `target`, or the line's end
    /// when the line is shorter; used to keep the column when moving up and down.
    static func column(atDisplayColumn target: Int, in line: [Character], tabWidth: Int) -> Int {
        var display = 0
        for index in 0..<line.count {
            let width = DisplayGlyph(line[index], atColumn: display, tabWidth: tabWidth).width
            if target < display + width {
                return index
            }
            display += width
        }
        return line.count
    }

    /// The width of the cursor's cell at `column`: the width of the character there, or 1 at
    /// the end of the line.
    static func cursorWidth(at column: Int, in line: [Character], tabWidth: Int) -> Int {
        guard column < line.count else { return 1 }
        let start = displayColumn(of: column, in: line, tabWidth: tabWidth)
        return DisplayGlyph(line[column], atColumn: start, tabWidth: tabWidth).width
    }
}
