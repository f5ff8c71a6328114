import SystemSupport

/// A bordered box with a title, the frame of pickers and forms.
enum Box {
    static func draw(into grid: inout CellGrid, frame: CellRect, title: String) {
        guard frame.width >= 2, frame.height >= 2 else { return }
        let border = CellStyle(foreground: .cyan)
        grid.fill(frame, style: .plain)
        for x in frame.x + 1..<frame.maxX - 1 {
            grid.put("─", x: x, y: frame.y, style: border)
            grid.put("─", x: x, y: frame.maxY - 1, style: border)
        }
        for y in frame.y + 1..<frame.maxY - 1 {
            grid.put("│", x: frame.x, y: y, style: border)
            grid.put("│", x: frame.maxX - 1, y: y, style: border)
        }
        grid.put("┌", x: frame.x, y: frame.y, style: border)
        grid.put("┐", x: frame.maxX - 1, y: frame.y, style: border)
        grid.put("└", x: frame.x, y: frame.maxY - 1, style: border)
        grid.put("┘", x: frame.maxX - 1, y: frame.maxY - 1, style: border)
        let label = " " + DisplayText.truncated(TerminalSafeText.escaped(title), toColumns: frame.width - 6) + " "
        grid.write(label, x: frame.x + 2, y: frame.y, style: border.adding(.bold), clip: frame.maxX - 1)
    }
}
