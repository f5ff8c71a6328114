import ScriptConsole
import Testing
@testable import TerminalUI

@Suite("Layout and panel avoidance")
struct LayoutTests {
    @Test(arguments: [
        // A panel docked at the bottom of a 22-row editor: its overlap.
        (CellRect(x: 0, y: 15, width: 80, height: 8), 0, 8),
        // Safe area subtracted, clamped at zero.
        (CellRect(x: 0, y: 15, width: 80, height: 8), 3, 5),
        (CellRect(x: 0, y: 22, width: 80, height: 1), 5, 0),
        // Not touching the bottom (the floating-keyboard case): nothing to inset.
        (CellRect(x: 0, y: 5, width: 80, height: 4), 0, 0),
        // Outside the view.
        (CellRect(x: 0, y: 40, width: 80, height: 4), 0, 0),
    ])
    func bottomInset(_ panel: CellRect, _ safeArea: Int, _ expected: Int) {
        let editor = CellRect(x: 0, y: 1, width: 80, height: 22)
        #expect(PanelAvoidance.bottomInset(panelFrame: panel, viewFrame: editor, safeAreaBottom: safeArea) == expected)
    }

    @Test func noPanelNoInset() {
        #expect(PanelAvoidance.bottomInset(panelFrame: nil, viewFrame: CellRect(x: 0, y: 0, width: 10, height: 10), safeAreaBottom: 0) == 0)
    }

    @Test(arguments: [(80, 24), (100, 40), (200, 60)])
    func layoutFillsTheScreen(_ columns: Int, _ rows: Int) {
        let layout = EditorLayout(size: TerminalSize(columns: columns, rows: rows), lineCount: 10, showsLineNumbers: true, panel: nil)
        #expect(layout.titleBar.y == 0)
        #expect(layout.statusBar.y == rows - 1)
        #expect(layout.editor.height == rows - 2)
        #expect(layout.visibleTextRows == rows - 2)
        #expect(layout.gutterWidth == 4)
        #expect(layout.textArea.width == columns - 4)
    }

    @Test func panelTakesAtMostHalfTheEditor() {
        let result = ScriptRunResult(console: (1...100).map { ConsoleMessage(level: .log, message: "\($0)") })
        var runs = ResultPanel()
        runs.append(RunRecord(number: 1, script: "x", outcome: .result(result)))
        let layout = EditorLayout(size: TerminalSize(columns: 80, rows: 24), lineCount: 1, showsLineNumbers: true,
                                  panel: runs)
        let panel = layout.panel
        #expect(panel?.height == 11)
        #expect(panel?.maxY == layout.editor.maxY)
        #expect(layout.visibleTextRows == 11)
    }

    @Test func gutterGrowsWithTheLineCount() {
        let layout = EditorLayout(size: TerminalSize(columns: 80, rows: 24), lineCount: 12345, showsLineNumbers: true, panel: nil)
        #expect(layout.gutterWidth == 6)
        let hidden = EditorLayout(size: TerminalSize(columns: 80, rows: 24), lineCount: 12345, showsLineNumbers: false, panel: nil)
        #expect(hidden.gutterWidth == 0)
    }
}
