import ScriptConsole
import Testing
@testable import TerminalUI

@Suite("Editor screen")
struct EditorScreenTests {
    @Test func emptyEditorShowsThePlaceholderTitleAndKeys() {
        let state = EditorState.make()
        let rows = state.screenRows()
        #expect(rows.count == 24)
        #expect(rows[0].contains("Example — https://example.com/"))
        #expect(rows[1].contains("Write JavaScript to run on this page"))
        #expect(rows[23].contains("^R Run"))
        #expect(rows[23].contains("^Q Quit"))
        #expect(rows.allSatisfy { GlyphWidth.columns(of: $0) == 80 })
    }

    @Test func placeholderGoesAwayWhenTyping() {
        var state = EditorState.make()
        #expect(!state.screenRows()[0].contains("●"))
        state.type("x")
        #expect(!state.screenRows()[1].contains("Write JavaScript"))
        // The title bar names the script and marks it changed.
        #expect(state.screenRows()[0].contains("Site script for example.com ●"))
        #expect(state.screenRows(document: nil, typing: "x")[0].contains("● modified"))
    }

    @Test func hostileTitleAndURLAreEscaped() {
        let state = EditorState(page: PageInfo(title: "Evil\u{1B}]0;pwned\u{7}\u{202E}txt", url: "https://x/\u{9B}2J"),
                                script: "", size: TerminalSize(columns: 80, rows: 24))
        let title = state.screenRows()[0]
        #expect(title.contains("Evil\\e]0;pwned\\u{7}\\u{202E}txt"))
        #expect(title.contains("https://x/\\u{9B}2J"))
    }

    @Test func lineNumbersAndCursorPosition() {
        var state = EditorState.make("a\n日本語x")
        state.press(.down)
        state.press(.right, times: 3)
        let frame = EditorScreen.render(state)
        #expect(state.screenRows()[2].hasPrefix("  2 日本語x"))
        // Gutter of 4, then three wide characters.
        #expect(frame.cursor == CursorPlacement(x: 10, y: 2))
    }

    @Test func longCJKLineScrollsSidewaysAndKeepsTheCursorOnScreen() {
        let line = String(repeating: "日本", count: 40)
        var state = EditorState.make(line)
        state.press(.end)
        let frame = EditorScreen.render(state)
        let cursor = frame.cursor
        #expect(state.viewport.left > 0)
        #expect(cursor?.x == 79)
        // No wide character is cut in half at either edge.
        let row = state.screenRows()[1]
        #expect(GlyphWidth.columns(of: row) == 80)
    }

    @Test func wideCharacterCutByTheLeftEdgeIsBlank() {
        var state = EditorState.make("日本語")
        state.viewport = Viewport(top: 0, left: 1)
        let rows = state.screenRows()
        #expect(rows[1].hasPrefix("  1  本語"))
    }

    @Test func controlCharactersInTheDocumentAreDrawnEscaped() {
        var state = EditorState.make("a\u{1B}b\u{200B}c")
        let row = state.screenRows()[1]
        #expect(row.hasPrefix("  1 a\\eb\\u{200B}c"))
        state.press(.end)
        #expect(EditorScreen.render(state).cursor == CursorPlacement(x: 4 + 1 + 2 + 1 + 8 + 1, y: 1))
    }

    @Test func tinyTerminalSaysSo() {
        let state = EditorState.make("x", columns: 10, rows: 3)
        #expect(state.screenRows()[0].hasPrefix("Terminal t"))
        #expect(EditorScreen.render(state).cursor == nil)
    }

    @Test func resizeLaysOutAgain() {
        var state = EditorState.make("x")
        _ = state.handle(.resize(TerminalSize(columns: 120, rows: 40)))
        let rows = state.screenRows()
        #expect(rows.count == 40)
        #expect(rows[39].contains("^R Run"))
        #expect(GlyphWidth.columns(of: rows[0]) == 120)
    }

    @Test func cursorStaysAboveThePanelAfterResize() {
        let text = (1...60).map { "line \($0)" }.joined(separator: "\n")
        var state = EditorState.make(text)
        state.press(.end, .control)
        state.run(answering: ScriptRunResult(console: (1...30).map { ConsoleMessage(level: .log, message: "\($0)") }))
        for size in [TerminalSize(columns: 80, rows: 24), TerminalSize(columns: 100, rows: 40), TerminalSize(columns: 60, rows: 12)] {
            _ = state.handle(.resize(size))
            let frame = EditorScreen.render(state)
            let panel = state.layout.panel
            let cursor = frame.cursor
            #expect(cursor != nil)
            if let cursor, let panel {
                #expect(cursor.y < panel.y)
            }
        }
    }

    @Test func theStateMachineLearnsTheColouringOfTheRowsOnScreen() {
        var state = EditorState.make((1...100).map { "let v\($0) = \($0);" }.joined(separator: "\n"))
        #expect(state.highlighter.exactRowCount == state.layout.editor.height)
        state.press(.end, .control)
        #expect(state.highlighter.exactRowCount == 100)
        _ = EditorScreen.render(state)
        #expect(state.highlighter.exactRowCount == 100)
    }

    /// A megabyte-long line is drawn without colours (see `SyntaxHighlighter.colouringLimit`);
    /// its speed is measured by `pagescript bench`, not here.
    @Test func typingInAOneMegabyteLineDrawsTheLinesEnd() {
        let line = String(repeating: "x=1;", count: 262_144)
        var state = EditorState.make(line)
        state.press(.end)
        state.type("y")
        #expect(state.screenRows()[1].hasSuffix("x=1;x=1;y "), "\(state.screenRows()[1].suffix(20))")
        #expect(state.highlighter.tokens(forRow: 0, in: state.lines).isEmpty)
    }
}
