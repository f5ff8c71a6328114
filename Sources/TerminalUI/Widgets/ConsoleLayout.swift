import ScriptConsole
import SystemSupport

/// Console lines laid out as browsers' consoles show them: each level in its colour, grouped
/// lines indented under their group's heading, `console.table` as a table, `console.trace`
/// with its stack, and any other level under its own name.
enum ConsoleLayout {
    /// Console lines kept from one run: a script that logs in a loop should not make every
    /// frame wrap megabytes of text.
    static let lineLimit = 500
    /// Characters kept from one message.
    static let textLimit = 8_000
    /// Characters of one table cell shown.
    static let cellLimit = 40

    static func lines(of console: [ConsoleMessage]) -> [PanelLine] {
        var lines: [PanelLine] = []
        let dropped = console.count - lineLimit
        if dropped > 0 {
            lines.append(PanelLine([.plain("(\(dropped) earlier console lines not shown)", CellStyle(attributes: .dim))]))
        }
        for line in console.suffix(lineLimit) {
            lines += self.lines(of: line)
        }
        return lines
    }

    static func lines(of line: ConsoleMessage) -> [PanelLine] {
        let indent = max(0, line.depth) * 2
        let style = style(for: line.level)
        var result: [PanelLine] = []
        let paragraphs = capped(line.message).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if line.level == .group || line.level == .groupCollapsed {
            result.append(PanelLine(indent: indent, [.plain("▾ ", style), .escaped(paragraphs.first ?? "", style.adding(.bold))]))
            result += paragraphs.dropFirst().map { PanelLine(indent: indent + 2, [.escaped($0, style)]) }
            return result
        }
        let prefix = "[\(line.level.rawValue)] "
        let hasMessage = !(line.level == .table && line.message.isEmpty && line.table != nil)
        if hasMessage {
            for (index, paragraph) in paragraphs.enumerated() {
                let lead: [StyledSpan] = index == 0 ? [.escaped(prefix, style)] : []
                result.append(PanelLine(indent: index == 0 ? indent : indent + prefix.count, lead + [.escaped(paragraph, style)]))
            }
        }
        if let table = line.table {
            result += tableLines(table, indent: indent + (hasMessage ? 2 : 0), lead: hasMessage ? nil : prefix, style: style)
        }
        for frame in line.stack {
            result.append(PanelLine(indent: indent + 4, [.escaped("at " + frame.description, CellStyle(attributes: .dim))]))
        }
        return result
    }

    /// `console.table` drawn with box lines, each column as wide as its widest cell (cells cut
    /// at ``cellLimit`` characters).
    static func tableLines(_ table: ConsoleTable, indent: Int, lead: String?, style: CellStyle) -> [PanelLine] {
        let columnCount = max(table.columns.count, table.rows.map(\.count).max() ?? 0)
        guard columnCount > 0 else { return [] }
        func cell(_ row: [String], _ column: Int) -> String {
            let text = column < row.count ? row[column] : ""
            return DisplayText.truncated(TerminalSafeText.escaped(text), toColumns: cellLimit)
        }
        let header = (0..<columnCount).map { cell(table.columns, $0) }
        let body = table.rows.map { row in (0..<columnCount).map { cell(row, $0) } }
        var widths = header.map { GlyphWidth.columns(of: $0) }
        for row in body {
            for (column, text) in row.enumerated() { widths[column] = max(widths[column], GlyphWidth.columns(of: text)) }
        }
        func rule(_ left: String, _ middle: String, _ right: String) -> String {
            left + widths.map { String(repeating: "─", count: $0 + 2) }.joined(separator: middle) + right
        }
        func row(_ cells: [String]) -> String {
            "│" + cells.enumerated().map { column, text in
                " " + text + String(repeating: " ", count: widths[column] - GlyphWidth.columns(of: text)) + " "
            }.joined(separator: "│") + "│"
        }
        let frame = CellStyle(attributes: .dim)
        var lines: [PanelLine] = []
        if let lead {
            lines.append(PanelLine(indent: indent, [.plain(lead, style)]))
        }
        lines.append(PanelLine(indent: indent, [.plain(rule("┌", "┬", "┐"), frame)]))
        lines.append(PanelLine(indent: indent, [.plain(row(header), CellStyle(attributes: .bold))]))
        lines.append(PanelLine(indent: indent, [.plain(rule("├", "┼", "┤"), frame)]))
        for cells in body {
            lines.append(PanelLine(indent: indent, [.plain(row(cells))]))
        }
        lines.append(PanelLine(indent: indent, [.plain(rule("└", "┴", "┘"), frame)]))
        return lines
    }

    static func style(for level: ConsoleMessage.Level) -> CellStyle {
        switch level {
        case .warn: CellStyle(foreground: .yellow)
        case .error, .assert: CellStyle(foreground: .red)
        case .debug: CellStyle(foreground: .brightBlack)
        case .group, .groupCollapsed: CellStyle(foreground: .cyan)
        default: .plain
        }
    }

    private static func capped(_ text: String) -> String {
        guard text.count > textLimit else { return text }
        return String(text.prefix(textLimit)) + "… (\(text.count - textLimit) more characters)"
    }
}

