import TerminalText

/// The panel that rises from the bottom after a run: the value, the console lines and the
/// exception, or why the script could not run.
///
/// Everything in it came from the page, so each line is escaped (`TerminalSafeText`) before
/// it is measured and drawn; newlines in messages start new panel lines.
struct OutputPanel: Hashable, Sendable {
    enum Tone: Hashable, Sendable {
        case value
        case console(ConsoleLine.Level)
        case exception
        case failure
    }

    struct Entry: Hashable, Sendable {
        var tone: Tone
        var prefix: String
        var text: String
    }

    /// Console lines kept from one run: a script that logs in a loop should not make every
    /// frame wrap megabytes of text.
    static let consoleLimit = 500
    /// Characters kept from one message or value.
    static let textLimit = 8000

    let title: String
    let entries: [Entry]
    /// The first content line shown.
    var scroll = 0
    /// The lines as last wrapped, and the width they were wrapped for.
    private var cachedLines: [Line] = []
    private var cachedWidth = -1

    struct Line: Hashable, Sendable {
        var text: String
        var style: CellStyle
    }

    init(result: ScriptRunResult) {
        var entries: [Entry] = []
        let dropped = result.console.count - Self.consoleLimit
        if dropped > 0 {
            entries.append(Entry(tone: .console(.debug), prefix: "", text: "(\(dropped) earlier console lines not shown)"))
        }
        for line in result.console.suffix(Self.consoleLimit) {
            entries.append(Entry(tone: .console(line.level), prefix: "[\(line.level.rawValue)] ", text: Self.capped(line.message)))
        }
        if let error = result.exception {
            var location = ""
            if let line = error.line {
                location = " (line \(line)" + (error.column.map { ", column \($0)" } ?? "") + ")"
            }
            let name = error.name.isEmpty ? "Error" : error.name
            entries.append(Entry(tone: .exception, prefix: "✖ ", text: "\(name): \(Self.capped(error.message))\(location)"))
        } else {
            entries.append(Entry(tone: .value, prefix: "← ", text: Self.capped(result.valueJSON ?? "undefined")))
        }
        title = result.exception == nil ? "Result" : "Exception"
        self.entries = entries
    }

    init(failure: String) {
        title = "Could not run"
        entries = [Entry(tone: .failure, prefix: "✖ ", text: Self.capped(failure))]
    }

    private static func capped(_ text: String) -> String {
        guard text.count > textLimit else { return text }
        return String(text.prefix(textLimit)) + "… (\(text.count - textLimit) more characters)"
    }

    /// Wraps the content for `width` ahead of drawing, so layout and drawing reuse it.
    mutating func layOut(width: Int) {
        guard width != cachedWidth else { return }
        cachedLines = wrap(width: width)
        cachedWidth = width
    }

    /// Content lines (escaped and wrapped to `width`) with their styles.
    func lines(width: Int) -> [Line] {
        width == cachedWidth ? cachedLines : wrap(width: width)
    }

    private func wrap(width: Int) -> [Line] {
        var result: [Line] = []
        for entry in entries {
            let style = Self.style(for: entry.tone)
            let prefixWidth = GlyphWidth.columns(of: entry.prefix)
            let indent = String(repeating: " ", count: prefixWidth)
            let normalized = entry.text.replacingLineBreaks()
            var first = true
            for paragraph in normalized.split(separator: "\n", omittingEmptySubsequences: false) {
                let safe = TerminalSafeText.escaped(String(paragraph))
                for piece in DisplayText.wrapped(safe, toColumns: max(1, width - prefixWidth)) {
                    result.append(Line(text: (first ? entry.prefix : indent) + piece, style: style))
                    first = false
                }
            }
        }
        return result
    }

    /// The rows the content needs (without the header).
    func contentHeight(width: Int) -> Int {
        lines(width: width).count
    }

    /// Scrolls by `delta` lines within what `frame` can show.
    mutating func scroll(by delta: Int, frame: CellRect) {
        let total = contentHeight(width: frame.width)
        let visible = max(1, frame.height - 1)
        scroll = min(max(0, scroll + delta), max(0, total - visible))
    }

    func draw(into grid: inout CellGrid, frame: CellRect) {
        guard !frame.isEmpty else { return }
        grid.fill(frame, style: .plain)
        let header = CellStyle(attributes: .reverse)
        grid.fill(CellRect(x: frame.x, y: frame.y, width: frame.width, height: 1), style: header)
        let hint = " Alt-↑↓ scroll  Esc close "
        let titleText = " " + title + " "
        grid.write(titleText, x: frame.x + 1, y: frame.y, style: header.adding(.bold), clip: frame.maxX)
        let hintX = frame.maxX - GlyphWidth.columns(of: hint)
        if hintX > frame.x + 1 + GlyphWidth.columns(of: titleText) {
            grid.write(hint, x: hintX, y: frame.y, style: header, clip: frame.maxX)
        }
        let content = lines(width: frame.width)
        let rows = frame.height - 1
        let first = min(scroll, max(0, content.count - rows))
        for (offset, line) in content.dropFirst(first).prefix(rows).enumerated() {
            grid.write(line.text, x: frame.x, y: frame.y + 1 + offset, style: line.style, clip: frame.maxX)
        }
        if content.count - first > rows {
            let more = " ↓ \(content.count - first - rows) more "
            grid.write(more, x: frame.maxX - GlyphWidth.columns(of: more), y: frame.maxY - 1,
                       style: CellStyle(attributes: .reverse), clip: frame.maxX)
        }
    }

    private static func style(for tone: Tone) -> CellStyle {
        switch tone {
        case .value: return CellStyle(foreground: .cyan)
        case .console(.warn): return CellStyle(foreground: .yellow)
        case .console(.error): return CellStyle(foreground: .red)
        case .console(.debug): return CellStyle(foreground: .brightBlack)
        case .console: return .plain
        case .exception, .failure: return CellStyle(foreground: .red, attributes: .bold)
        }
    }
}

private extension String {
    /// "\r\n" and "\r" as "\n", so page text splits into lines the same way on every platform.
    func replacingLineBreaks() -> String {
        guard contains(where: { $0 == "\r\n" || $0 == "\r" }) else { return self }
        return String(map { $0 == "\r\n" || $0 == "\r" ? "\n" : $0 })
    }
}
