import Testing
@testable import TerminalUI

@Suite("Editor: typing, moving, selecting")
struct EditorEditingTests {
    @Test func typingInsertsAtTheCursor() {
        var state = EditorState.make()
        state.type("let x")
        #expect(state.text == "let x")
        #expect(state.cursor == .at(0, 5))
        state.press(.left, times: 2)
        state.type("y")
        #expect(state.text == "lety x")
    }

    @Test func backspaceAndDeleteJoinLines() {
        var state = EditorState.make("ab\ncd")
        state.press(.down)
        state.press(.home)
        state.press(.backspace)
        #expect(state.text == "abcd")
        #expect(state.cursor == .at(0, 2))
        state.press(.delete)
        #expect(state.text == "abd")
    }

    @Test func leftAndRightCrossLineEnds() {
        var state = EditorState.make("ab\ncd")
        state.press(.end)
        state.press(.right)
        #expect(state.cursor == .at(1, 0))
        state.press(.left)
        #expect(state.cursor == .at(0, 2))
    }

    @Test func homeGoesToIndentationThenColumnZero() {
        var state = EditorState.make("    code")
        state.press(.end)
        state.press(.home)
        #expect(state.cursor == .at(0, 4))
        state.press(.home)
        #expect(state.cursor == .at(0, 0))
        state.press(.home)
        #expect(state.cursor == .at(0, 4))
    }

    @Test func upAndDownKeepTheDisplayColumnAcrossWideCharacters() {
        var state = EditorState.make("abcdef\n日本語\nabcdef")
        state.press(.right, times: 4)
        state.press(.down)
        // Display column 4 is the start of 語 (the third character).
        #expect(state.cursor == .at(1, 2))
        state.press(.down)
        #expect(state.cursor == .at(2, 4))
    }

    @Test func verticalMovesRememberTheColumnThroughAShortLine() {
        var state = EditorState.make("abcdef\nab\nabcdef")
        state.press(.end)
        state.press(.down)
        #expect(state.cursor == .at(1, 2))
        state.press(.down)
        #expect(state.cursor == .at(2, 6))
    }

    @Test func wordMoves() {
        var state = EditorState.make("const value = foo(bar);")
        state.press(.right, .control)
        #expect(state.cursor == .at(0, 5))
        state.press(.right, .control)
        #expect(state.cursor == .at(0, 11))
        state.press(.right, .alt)
        #expect(state.cursor == .at(0, 13))
        state.press(.left, .control)
        #expect(state.cursor == .at(0, 12))
        state.press(.left, .control)
        #expect(state.cursor == .at(0, 6))
        _ = state.handle(.key(KeyEvent(.character("f"), .alt)))
        #expect(state.cursor == .at(0, 11))
    }

    @Test func shiftArrowsSelectAndTypingReplacesTheSelection() {
        var state = EditorState.make("hello world")
        state.press(.right, times: 6)
        state.press(.right, times: 5, .shift)
        #expect(state.selection.range == TextRange(.at(0, 6), .at(0, 11)))
        state.type("there")
        #expect(state.text == "hello there")
        #expect(state.selection.isEmpty)
    }

    @Test func shiftControlSelectsWords() {
        var state = EditorState.make("one two three")
        state.press(.right, [.shift, .control])
        state.press(.right, [.shift, .control])
        #expect(state.selection.range == TextRange(.at(0, 0), .at(0, 7)))
    }

    @Test func selectionAcrossLinesWithShiftDown() {
        var state = EditorState.make("ab\ncd\nef")
        state.press(.right)
        state.press(.down, .shift)
        state.press(.down, .shift)
        #expect(state.selection.range == TextRange(.at(0, 1), .at(2, 1)))
        state.press(.backspace)
        #expect(state.text == "af")
    }

    @Test func plainArrowCollapsesTheSelection() {
        var state = EditorState.make("abcdef")
        state.press(.right, times: 2)
        state.press(.right, times: 2, .shift)
        state.press(.left)
        #expect(state.cursor == .at(0, 2))
        #expect(state.selection.isEmpty)
    }

    @Test func selectAllThenDelete() {
        var state = EditorState.make("a\nb\nc")
        state.control("a")
        state.press(.delete)
        #expect(state.text == "")
    }

    @Test func pageDownMovesByAScreen() {
        let text = (1...100).map { "line \($0)" }.joined(separator: "\n")
        var state = EditorState.make(text, rows: 24)
        state.press(.pageDown)
        // 22 editor rows: a page is 21 lines.
        #expect(state.cursor.row == 21)
        #expect(state.viewport.top == 21)
        state.press(.pageUp)
        #expect(state.cursor.row == 0)
        #expect(state.viewport.top == 0)
    }

    @Test func controlHomeAndEnd() {
        var state = EditorState.make("a\nb\nccc")
        state.press(.end, .control)
        #expect(state.cursor == .at(2, 3))
        state.press(.home, .control)
        #expect(state.cursor == .at(0, 0))
    }
}

@Suite("Editor: clipboard")
struct EditorClipboardTests {
    @Test func copyAndPasteASelection() {
        var state = EditorState.make("abc def")
        state.press(.right, times: 3, .shift)
        state.control("c")
        state.press(.end)
        state.control("v")
        #expect(state.text == "abc defabc")
    }

    @Test func cutRemovesTheSelection() {
        var state = EditorState.make("abc def")
        state.press(.right, times: 4, .shift)
        state.control("x")
        #expect(state.text == "def")
        state.press(.end)
        state.control("v")
        #expect(state.text == "defabc ")
    }

    @Test func cutWithoutSelectionTakesTheLine() {
        var state = EditorState.make("one\ntwo\nthree")
        state.press(.down)
        state.control("x")
        #expect(state.text == "one\nthree")
        #expect(state.clipboard == Clipboard(text: "two\n", isWholeLine: true))
    }

    @Test func pastedWholeLineGoesAboveTheCursorLine() {
        var state = EditorState.make("one\ntwo\nthree")
        state.control("c")
        state.press(.down, times: 2)
        state.press(.right)
        state.control("v")
        #expect(state.text == "one\ntwo\none\nthree")
        #expect(state.cursor == .at(3, 1))
    }

    @Test func pasteReplacesTheSelection() {
        var state = EditorState.make("aaa bbb")
        state.press(.right, times: 3, .shift)
        state.control("c")
        state.press(.end)
        state.press(.left, times: 3, .shift)
        state.control("v")
        #expect(state.text == "aaa aaa")
    }

    @Test func pasteWithEmptyClipboardSaysSo() {
        var state = EditorState.make("x")
        state.control("v")
        #expect(state.text == "x")
        #expect(state.message != nil)
    }
}

@Suite("Editor: indentation and code mode")
struct EditorIndentationTests {
    @Test func enterKeepsTheIndentation() {
        var state = EditorState.make()
        state.type("  a\nb")
        #expect(state.text == "  a\n  b")
    }

    @Test func enterAfterAnOpeningBraceIndentsOneLevel() {
        var state = EditorState.make()
        state.type("if (x) {\nrun();")
        #expect(state.text == "if (x) {\n  run();")
    }

    @Test func enterBetweenBracesPutsTheCloserOnItsOwnLine() {
        var state = EditorState.make("function f() {}")
        state.press(.end)
        state.press(.left)
        state.press(.enter)
        #expect(state.text == "function f() {\n  \n}")
        #expect(state.cursor == .at(1, 2))
    }

    @Test func typingACloserOnABlankLineOutdents() {
        var state = EditorState.make()
        state.type("if (x) {\ny();\n}")
        #expect(state.text == "if (x) {\n  y();\n}")
    }

    @Test(arguments: [2, 4])
    func tabInsertsSpacesToTheNextStop(_ width: Int) {
        var state = EditorState.make(configuration: EditorConfiguration(indentWidth: width))
        state.press(.tab)
        #expect(state.text == String(repeating: " ", count: width))
        state.type("x")
        state.press(.tab)
        #expect(state.text.count == 2 * width)
    }

    @Test func backspaceInIndentationRemovesOneLevel() {
        var state = EditorState.make(configuration: EditorConfiguration(indentWidth: 4))
        state.press(.tab, times: 2)
        state.press(.backspace)
        #expect(state.text == "    ")
    }

    @Test func tabAndShiftTabIndentSelectedLines() {
        var state = EditorState.make("a\nb\nc")
        state.press(.down, times: 2, .shift)
        state.press(.tab)
        #expect(state.text == "  a\n  b\nc")
        state.press(.backTab)
        #expect(state.text == "a\nb\nc")
    }

    @Test func shiftTabOutdentsTheCursorLine() {
        var state = EditorState.make("    x")
        state.press(.end)
        state.press(.backTab)
        #expect(state.text == "  x")
        #expect(state.cursor == .at(0, 3))
    }

    @Test(arguments: [
        ("‘single’", "'single'"),
        ("“double”", "\"double\""),
        ("a – b — c", "a - b - c"),
        ("a\u{00A0}b\u{202F}c", "a b c"),
    ])
    func codeModeTurnsTypographyIntoASCII(_ typed: String, _ expected: String) {
        var typing = EditorState.make()
        typing.type(typed)
        #expect(typing.text == expected)

        var pasting = EditorState.make()
        _ = pasting.handle(.paste(typed))
        #expect(pasting.text == expected)
    }

    @Test func withoutCodeModeTypographyStays() {
        var state = EditorState.make(configuration: EditorConfiguration(codeMode: false))
        state.type("“x”")
        #expect(state.text == "“x”")
    }

    @Test func pasteNormalisesLineEndingsAndDropsControls() {
        var state = EditorState.make()
        _ = state.handle(.paste("a\r\nb\rc\u{1B}[31md\u{7}\te"))
        #expect(state.text == "a\nb\nc[31md\te")
    }
}
