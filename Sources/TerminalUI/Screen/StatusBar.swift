import SystemSupport

/// The bottom row: the keys that work now, or a message, or a question, and the cursor's
/// position, which is always shown: in a narrow terminal it shortens (`Ln 12, Col 5`, then
/// `12:5`) and the hints and the message give way to it.
enum StatusBar {
    /// A key and what it does, drawn as a highlighted key name and a label.
    struct Hint: Hashable, Sendable {
        var key: String
        var label: String
    }

    /// The cursor's line and column, both counted from 1.
    struct Position: Hashable, Sendable {
        var line: Int
        var column: Int

        /// The longest form that fits in `room` columns.
        func text(fitting room: Int) -> String {
            let long = "Ln \(line), Col \(column) "
            if GlyphWidth.columns(of: long) <= room { return long }
            let short = "\(line):\(column) "
            return GlyphWidth.columns(of: short) <= room ? short : ""
        }
    }

    enum Content: Hashable, Sendable {
        case hints([Hint], position: Position?)
        case message(StatusMessage, position: Position?)
        case question(String, [Hint])
    }

    static func draw(into grid: inout CellGrid, frame: CellRect, content: Content) {
        guard !frame.isEmpty else { return }
        grid.fill(frame, style: .plain)
        let keyStyle = CellStyle(attributes: [.reverse, .bold])
        var x = frame.x
        var trailingText = ""
        func positionText(_ position: Position?) -> String {
            // The long form while at least a third of the line stays for the rest.
            guard let position else { return "" }
            let long = position.text(fitting: frame.width)
            return GlyphWidth.columns(of: long) * 3 <= frame.width ? long : position.text(fitting: max(0, frame.width / 2))
        }
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
        case .hints(let hints, let position):
            trailingText = positionText(position)
            drawHints(hints)
        case .message(let message, let position):
            trailingText = positionText(position)
            let style = message.isError ? CellStyle(foreground: .red, attributes: .bold) : CellStyle(foreground: .cyan)
            let room = frame.width - GlyphWidth.columns(of: trailingText) - 1
            let text = DisplayText.truncated(TerminalSafeText.escaped(message.text), toColumns: max(0, room))
            x = grid.write(text, x: x, y: frame.y, style: style, clip: frame.maxX)
        case .question(let question, let hints):
            let room = max(0, frame.width - 20)
            let text = DisplayText.truncated(TerminalSafeText.escaped(question), toColumns: room) + "  "
            x = grid.write(text, x: x, y: frame.y, style: CellStyle(foreground: .yellow, attributes: .bold), clip: frame.maxX)
            drawHints(hints)
        }
        let trailingWidth = GlyphWidth.columns(of: trailingText)
        if trailingWidth > 0, frame.maxX - trailingWidth >= x {
            grid.write(trailingText, x: frame.maxX - trailingWidth, y: frame.y, style: CellStyle(attributes: .dim), clip: frame.maxX)
        }
    }
}
