import TerminalText

/// The bottom row: the keys that work now, or a message, or a question.
enum StatusBar {
    /// A key and what it does, drawn as a highlighted key name and a label.
    struct Hint: Hashable, Sendable {
        var key: String
        var label: String
    }

    enum Content: Hashable, Sendable {
        case hints([Hint], trailing: String)
        case message(StatusMessage, trailing: String)
        case question(String, [Hint])
    }

    static func draw(into grid: inout CellGrid, frame: CellRect, content: Content) {
        guard !frame.isEmpty else { return }
        grid.fill(frame, style: .plain)
        let keyStyle = CellStyle(attributes: [.reverse, .bold])
        var x = frame.x
        var trailingText = ""
        func drawHints(_ hints: [Hint]) {
            for hint in hints {
                let width = GlyphWidth.columns(of: hint.key) + 1 + GlyphWidth.columns(of: hint.label) + 2
                // A hint is shown whole or not at all, so a narrow terminal drops the last ones.
                guard x + width <= frame.maxX - GlyphWidth.columns(of: trailingText) else { break }
                x = grid.write(hint.key, x: x, y: frame.y, style: keyStyle, clip: frame.maxX)
                x = grid.write(" " + hint.label + "  ", x: x, y: frame.y, style: .plain, clip: frame.maxX)
            }
        }
        switch content {
        case .hints(let hints, let trailing):
            trailingText = trailing
            drawHints(hints)
        case .message(let message, let trailing):
            trailingText = trailing
            let style = message.isError ? CellStyle(foreground: .red, attributes: .bold) : CellStyle(foreground: .cyan)
            let room = frame.width - GlyphWidth.columns(of: trailing) - 1
            let text = DisplayText.truncated(TerminalSafeText.escaped(message.text), toColumns: max(0, room))
            x = grid.write(text, x: x, y: frame.y, style: style, clip: frame.maxX)
        case .question(let question, let hints):
            x = grid.write(TerminalSafeText.escaped(question) + "  ", x: x, y: frame.y, style: CellStyle(foreground: .yellow, attributes: .bold), clip: frame.maxX)
            drawHints(hints)
        }
        let trailingWidth = GlyphWidth.columns(of: trailingText)
        if trailingWidth > 0, frame.maxX - trailingWidth > x {
            grid.write(trailingText, x: frame.maxX - trailingWidth, y: frame.y, style: CellStyle(attributes: .dim), clip: frame.maxX)
        }
    }
}
