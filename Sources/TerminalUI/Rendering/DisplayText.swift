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

    /// Prose broken into lines of at most `columns` cells at spaces, as a paragraph is set: a
    /// word moves whole to the next line, and only a word wider than `columns` is broken. The
    /// spaces where a line breaks are dropped; a paragraph's leading spaces are kept. Newlines in
    /// the text start new lines.
    ///
    /// ```swift
    /// DisplayText.wordWrapped("it has no path: add /*", toColumns: 12)
    /// // ["it has no", "path: add /*"]
    /// ```
    static func wordWrapped(_ text: String, toColumns columns: Int) -> [String] {
        guard columns > 0 else { return [] }
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            var used = 0
            var isFirstLine = true
            var gap = 0
            func endLine() {
                lines.append(line)
                line = ""
                used = 0
                isFirstLine = false
            }
            var rest = paragraph[...]
            while !rest.isEmpty {
                let spaces = rest.prefix { $0 == " " }
                if !spaces.isEmpty {
                    gap += spaces.count
                    rest = rest.dropFirst(spaces.count)
                    continue
                }
                let word = rest.prefix { $0 != " " }
                rest = rest.dropFirst(word.count)
                let width = Self.columns(of: word)
                // Spaces count where they are kept: between words, and before the paragraph's
                // first word.
                let kept = line.isEmpty && !isFirstLine ? 0 : min(gap, max(0, columns - used))
                gap = 0
                if used + kept + width <= columns {
                    line += String(repeating: " ", count: kept) + word
                    used += kept + width
                    continue
                }
                if !line.isEmpty { endLine() }
                // Wider than a line: broken by characters, filling each line.
                for character in word {
                    let characterWidth = max(1, GlyphWidth.columns(of: character))
                    if used + characterWidth > columns, !line.isEmpty { endLine() }
                    line.append(character)
                    used += characterWidth
                }
            }
            lines.append(line)
        }
        return lines
    }

    private static func columns(of word: Substring) -> Int {
        word.reduce(0) { $0 + max(1, GlyphWidth.columns(of: $1)) }
    }
}
