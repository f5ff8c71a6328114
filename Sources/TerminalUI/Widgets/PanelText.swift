import SystemSupport

/// A run of text in one style, already escaped for the terminal.
struct StyledSpan: Hashable, Sendable {
    var text: String
    var style: CellStyle

    /// A span of page-provided text, escaped.
    static func escaped(_ text: String, _ style: CellStyle = .plain) -> StyledSpan {
        StyledSpan(text: TerminalSafeText.escaped(text), style: style)
    }

    /// A span of the editor's own text.
    static func plain(_ text: String, _ style: CellStyle = .plain) -> StyledSpan {
        StyledSpan(text: text, style: style)
    }
}

/// One line of the result panel before wrapping: its indentation, its spans, and the value it
/// folds when it starts (or stands for) a folded part of a value.
struct PanelLine: Hashable, Sendable {
    var indent: Int
    var spans: [StyledSpan]
    /// The path of the container this line opens or stands for, when Enter folds or unfolds it.
    var foldPath: [Int]?

    init(indent: Int = 0, _ spans: [StyledSpan], foldPath: [Int]? = nil) {
        self.indent = indent
        self.spans = spans
        self.foldPath = foldPath
    }

    /// The line cut into rows of at most `width` columns; rows after the first are indented two
    /// more columns than the line. Each row keeps the fold path, so any of them folds.
    func wrapped(toColumns width: Int) -> [PanelLine] {
        let first = max(1, width - indent)
        let rest = max(1, width - indent - 2)
        var rows: [PanelLine] = []
        var current: [StyledSpan] = []
        var used = 0
        var limit = first
        func finish() {
            rows.append(PanelLine(indent: rows.isEmpty ? indent : indent + 2, current, foldPath: foldPath))
            current = []
            used = 0
            limit = rest
        }
        for span in spans {
            var piece = ""
            for character in span.text {
                let columns = max(1, GlyphWidth.columns(of: character))
                if used + columns > limit, used > 0 || !piece.isEmpty {
                    if !piece.isEmpty { current.append(StyledSpan(text: piece, style: span.style)) }
                    piece = ""
                    finish()
                }
                piece.append(character)
                used += columns
            }
            if !piece.isEmpty { current.append(StyledSpan(text: piece, style: span.style)) }
        }
        if !current.isEmpty || rows.isEmpty { finish() }
        return rows
    }

    var columns: Int {
        spans.reduce(indent) { $0 + GlyphWidth.columns(of: $1.text) }
    }
}
