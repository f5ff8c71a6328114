import SystemSupport

/// The top row: the page's title and URL (escaped, since the page chose them), which script is
/// on screen (the one Ctrl-S saves into), and a marker while there are unsaved changes.
enum TitleBar {
    static func draw(into grid: inout CellGrid, frame: CellRect, page: PageInfo, document: ScriptDocument?, isModified: Bool) {
        guard !frame.isEmpty else { return }
        let style = CellStyle(attributes: .reverse)
        grid.fill(frame, style: style)
        var right = ""
        if let document {
            right += TerminalSafeText.escaped(document.title)
        }
        if isModified {
            right += right.isEmpty ? "● modified" : " ●"
        }
        if !right.isEmpty {
            right = " " + DisplayText.truncated(right, toColumns: max(0, frame.width * 2 / 5)) + " "
        }
        let rightWidth = GlyphWidth.columns(of: right)
        let available = frame.width - rightWidth - 1
        let title = TerminalSafeText.escaped(page.title)
        let url = TerminalSafeText.escaped(page.url)
        var x = frame.x + 1
        if available > 0 {
            if title.isEmpty {
                x = grid.write(DisplayText.truncated(url, toColumns: available), x: x, y: frame.y, style: style.adding(.bold), clip: frame.x + 1 + available)
            } else {
                // The title is what the user recognises; the URL gets what room is left.
                let titleText = DisplayText.truncated(title, toColumns: available)
                x = grid.write(titleText, x: x, y: frame.y, style: style.adding(.bold), clip: frame.x + 1 + available)
                let room = frame.x + 1 + available - x - 3
                if room >= 8 {
                    x = grid.write(" — ", x: x, y: frame.y, style: style, clip: frame.maxX)
                    grid.write(DisplayText.truncated(url, toColumns: room), x: x, y: frame.y, style: style, clip: frame.x + 1 + available)
                }
            }
        }
        if rightWidth > 0, frame.width > rightWidth {
            grid.write(right, x: frame.maxX - rightWidth, y: frame.y, style: style.adding(.bold), clip: frame.maxX)
        }
    }
}
