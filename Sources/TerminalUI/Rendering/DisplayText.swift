/// Measuring, truncating and wrapping text by terminal columns.
///
/// Untrusted text is escaped first (see `TerminalSafeText`) so that the measured width is
/// the width that will be drawn.
enum DisplayText {
    /// The text cut to at most `columns` cells, ending in "…" when something was cut.
    static func truncated(_ text: String, toColumns columns: Int) -> String {
        guard columns > 0 else { return "" }
        guard GlyphWidth.columns(of: text) > columns else { return text }
        var result = ""
        var used = 0
        for character in text {
            let width = GlyphWidth.columns(of: character)
            if used + width > columns - 1 { break }
            result.append(character)
            used += width
        }
        return result + "…"
    }

    /// The text broken into lines of at most `columns` cells, breaking anywhere (values and
    /// console output are often long tokens such as JSON or URLs, where word wrapping helps
    /// little). Newlines in the text start new lines.
    static func wrapped(_ text: String, toColumns columns: Int) -> [String] {
        guard columns > 0 else { return [] }
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            var used = 0
            for character in paragraph {
                let width = max(1, GlyphWidth.columns(of: character))
                if used + width > columns, !line.isEmpty {
                    lines.append(line)
                    line = ""
                    used = 0
                }
                line.append(character)
                used += width
            }
            lines.append(line)
        }
        return lines
    }
}
