/// The help screen (F1): every key of ``KeyBindings`` by section, with what it does.
///
/// It is drawn from the binding table itself, so it lists exactly the keys the editor answers to.
/// ↑↓, PgUp and PgDn scroll; Esc, F1, Enter or q closes it.
struct HelpScreen: Hashable, Sendable {
    private(set) var scroll = 0

    /// Handles a key; returns false when the key closes the screen.
    mutating func handle(_ event: KeyEvent, pageSize: Int) -> Bool {
        let page = max(1, pageSize)
        switch event.key {
        case .escape, .enter, .function(1), .character("q"):
            return false
        case .up: scroll -= 1
        case .down: scroll += 1
        case .pageUp: scroll -= page
        case .pageDown, .character(" "): scroll += page
        case .home: scroll = 0
        case .end: scroll = Int.max / 2
        default: break
        }
        scroll = max(0, scroll)
        return true
    }

    /// One row of the screen: a section heading, or keys and what they do.
    enum Row: Hashable, Sendable {
        case heading(String)
        case keys(String, String)
        case blank
    }

    static let rows: [Row] = {
        var rows: [Row] = []
        for section in KeyBindings.Section.allCases {
            if !rows.isEmpty { rows.append(.blank) }
            rows.append(.heading(section.rawValue))
            for binding in KeyBindings.all where binding.section == section {
                rows.append(.keys(binding.label, binding.summary))
            }
            if section == .selecting {
                rows += KeyBindings.movement.map { .keys($0.label, $0.summary) }
            }
        }
        rows.append(.blank)
        rows.append(.heading("Other keys say what they do not do, in the status line."))
        return rows
    }()

    func draw(into grid: inout CellGrid, frame: CellRect) {
        guard frame.width >= 20, frame.height >= 4 else { return }
        Box.draw(into: &grid, frame: frame, title: "Keys (Esc closes, ↑↓ scroll)")
        let inner = frame.insetBy(1)
        let keyWidth = min(24, inner.width / 3)
        var lines: [(String, String, Bool)] = []
        for row in Self.rows {
            switch row {
            case .heading(let text):
                lines.append((text, "", true))
            case .keys(let keys, let summary):
                let wrapped = DisplayText.wordWrapped(summary, toColumns: max(1, inner.width - keyWidth - 3))
                for (index, piece) in wrapped.enumerated() {
                    lines.append((index == 0 ? keys : "", piece, false))
                }
            case .blank:
                lines.append(("", "", false))
            }
        }
        let first = min(scroll, max(0, lines.count - inner.height))
        for (offset, line) in lines.dropFirst(first).prefix(inner.height).enumerated() {
            let y = inner.y + offset
            if line.2 {
                grid.write(line.0, x: inner.x + 1, y: y, style: CellStyle(foreground: .cyan, attributes: .bold), clip: inner.maxX)
            } else {
                grid.write(line.0, x: inner.x + 2, y: y, style: CellStyle(attributes: .bold), clip: inner.x + 2 + keyWidth)
                grid.write(line.1, x: inner.x + 3 + keyWidth, y: y, style: .plain, clip: inner.maxX)
            }
        }
        if lines.count - first > inner.height {
            let more = " ↓ more "
            grid.write(more, x: frame.maxX - 2 - GlyphWidth.columns(of: more), y: frame.maxY - 1,
                       style: CellStyle(foreground: .cyan), clip: frame.maxX - 1)
        }
    }
}
