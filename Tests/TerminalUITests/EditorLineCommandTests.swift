import Testing
@testable import TerminalUI

@Suite("Editor: line and word commands")
struct EditorLineCommandTests {
    static func editor(_ text: String, anchor: TextPosition, head: TextPosition? = nil) -> EditorState {
        var state = EditorState.make(text)
        state.selection = Selection(anchor: anchor, head: head ?? anchor)
        return state
    }

    struct Vector: Sendable, CustomStringConvertible {
        var name: String
        var text: String
        var anchor: TextPosition
        var head: TextPosition?
        var expected: String
        var selection: Selection
        var description: String { name }
    }

    static let deleteLineVectors: [Vector] = [
        Vector(name: "middle line", text: "a\nb\nc", anchor: .at(1, 1), expected: "a\nc", selection: Selection(caret: .at(1, 0))),
        Vector(name: "last line", text: "a\nb\nc", anchor: .at(2, 0), expected: "a\nb", selection: Selection(caret: .at(1, 0))),
        Vector(name: "only line", text: "abc", anchor: .at(0, 2), expected: "", selection: Selection(caret: .at(0, 0))),
        Vector(name: "selected lines, end at column 0 not included", text: "a\nb\nc\nd", anchor: .at(1, 0), head: .at(3, 0),
               expected: "a\nd", selection: Selection(caret: .at(1, 0))),
    ]

    @Test(arguments: deleteLineVectors)
    func controlKDeletesLinesAndCtrlVPutsThemBack(_ vector: Vector) {
        var state = Self.editor(vector.text, anchor: vector.anchor, head: vector.head)
        state.control("k")
        #expect(state.text == vector.expected)
        #expect(state.selection == vector.selection)
        #expect(state.message?.text.hasPrefix("Deleted") == true)
        state.control("z")
        #expect(state.text == vector.text)
    }

    @Test func controlKThenControlVMovesALine() {
        var state = Self.editor("one\ntwo\nthree", anchor: .at(0, 0))
        state.control("k")
        state.press(.down)
        state.control("v")
        #expect(state.text == "two\none\nthree")
    }

    static let wordVectors: [(text: String, cursor: TextPosition, backward: String, forward: String)] = [
        ("let count = 1", .at(0, 9), "let  = 1", "let count 1"),
        ("a.b(c)", .at(0, 3), "a.(c)", "a.bc)"),
        ("  x", .at(0, 2), "x", "  "),
        ("ab\ncd", .at(1, 0), "abcd", "ab\n"),
        ("ab\ncd", .at(0, 2), "\ncd", "abcd"),
    ]

    @Test(arguments: wordVectors)
    func deleteWord(_ vector: (text: String, cursor: TextPosition, backward: String, forward: String)) {
        var backward = Self.editor(vector.text, anchor: vector.cursor)
        backward.control("w")
        #expect(backward.text == vector.backward)
        var forward = Self.editor(vector.text, anchor: vector.cursor)
        forward.press(.character("d"), .alt)
        #expect(forward.text == vector.forward)
        forward.control("z")
        #expect(forward.text == vector.text)
    }

    @Test func duplicateCopiesTheLineOrTheSelectedLinesBelow() {
        var line = Self.editor("a\nbc\nd", anchor: .at(1, 1))
        line.control("d")
        #expect(line.text == "a\nbc\nbc\nd")
        #expect(line.selection == Selection(caret: .at(2, 1)))

        var lines = Self.editor("a\nb\nc", anchor: .at(0, 0), head: .at(1, 1))
        lines.control("d")
        #expect(lines.text == "a\nb\na\nb\nc")
        #expect(lines.selection == Selection(anchor: .at(2, 0), head: .at(3, 1)))
        lines.control("z")
        #expect(lines.text == "a\nb\nc")
    }

    static let moveVectors: [Vector] = [
        Vector(name: "down", text: "a\nb\nc", anchor: .at(0, 1), expected: "b\na\nc", selection: Selection(caret: .at(1, 1))),
        Vector(name: "selection down", text: "a\nb\nc\nd", anchor: .at(0, 0), head: .at(1, 1), expected: "c\na\nb\nd",
               selection: Selection(anchor: .at(1, 0), head: .at(2, 1))),
        Vector(name: "up", text: "a\nb\nc", anchor: .at(2, 0), expected: "a\nc\nb", selection: Selection(caret: .at(1, 0))),
    ]

    @Test(arguments: moveVectors)
    func altArrowsMoveLines(_ vector: Vector) {
        var state = Self.editor(vector.text, anchor: vector.anchor, head: vector.head)
        state.press(vector.name.hasPrefix("up") ? .up : .down, .alt)
        #expect(state.text == vector.expected)
        #expect(state.selection == vector.selection)
        state.control("z")
        #expect(state.text == vector.text)
    }

    @Test func movingPastTheEdgesChangesNothingAndSaysWhy() {
        var top = Self.editor("a\nb", anchor: .at(0, 0))
        top.press(.up, .alt)
        #expect(top.text == "a\nb")
        #expect(top.message?.text == "Already the first line.")
        var bottom = Self.editor("a\nb", anchor: .at(0, 0), head: .at(1, 1))
        bottom.press(.down, .alt)
        #expect(bottom.text == "a\nb")
        #expect(bottom.message?.text == "Already the last line.")
        #expect(!bottom.hasUnsavedChanges)
    }

    static let dedentVectors: [(text: String, expected: String)] = [
        ("    a", "  a"),
        ("   a", " a"),
        (" a", "a"),
        ("\t\ta", "\ta"),
        ("a", "a"),
    ]

    @Test(arguments: dedentVectors)
    func shiftTabDedentsOneLevel(_ vector: (text: String, expected: String)) {
        var state = Self.editor(vector.text, anchor: .at(0, vector.text.count))
        state.press(.backTab)
        #expect(state.text == vector.expected)
        #expect(state.cursor == .at(0, vector.expected.count))
    }

    @Test func tabAndShiftTabOnSelectedLinesKeepTheSelection() {
        var state = Self.editor("a\n  b\nc", anchor: .at(0, 1), head: .at(1, 3))
        state.press(.tab)
        #expect(state.text == "  a\n    b\nc")
        #expect(state.selection == Selection(anchor: .at(0, 3), head: .at(1, 5)))
        state.press(.backTab)
        state.press(.backTab)
        #expect(state.text == "a\nb\nc")
        #expect(state.selection == Selection(anchor: .at(0, 1), head: .at(1, 1)))
    }

    static let commentVectors: [(name: String, text: String, anchor: TextPosition, head: TextPosition, expected: String)] = [
        ("one line", "let a = 1", .at(0, 3), .at(0, 3), "// let a = 1"),
        ("indentation kept", "if (x) {\n    go()\n}", .at(1, 0), .at(1, 0), "if (x) {\n    // go()\n}"),
        ("a selection ending at column 0 leaves that line", "a\nb", .at(0, 0), .at(1, 0), "// a\nb"),
        ("common indentation, blank lines left", "  a\n\n    b", .at(0, 0), .at(2, 5), "  // a\n\n  //   b"),
        ("all commented: uncommented", "  // a\n//b", .at(0, 0), .at(1, 3), "  a\nb"),
        ("mixed: all commented", "// a\nb", .at(0, 0), .at(1, 1), "// // a\n// b"),
    ]

    @Test(arguments: commentVectors)
    func commentToggle(_ vector: (name: String, text: String, anchor: TextPosition, head: TextPosition, expected: String)) {
        var state = Self.editor(vector.text, anchor: vector.anchor, head: vector.head)
        state.press(.character("_"), .control)
        #expect(state.text == vector.expected)
        state.control("z")
        #expect(state.text == vector.text)
        #expect(!state.hasUnsavedChanges)
    }

    @Test func commentingTwiceBringsTheTextBackAndTheCursorFollowsTheText() {
        var state = Self.editor("    call()", anchor: .at(0, 6))
        state.press(.character("/"), .control)
        #expect(state.text == "    // call()")
        #expect(state.cursor == .at(0, 9))
        state.press(.character("/"), .alt)
        #expect(state.text == "    call()")
        #expect(state.cursor == .at(0, 6))
    }

    @Test func commentOnABlankLineSaysWhyNothingHappened() {
        var state = Self.editor("  ", anchor: .at(0, 2))
        state.press(.character("_"), .control)
        #expect(state.text == "  ")
        #expect(state.message?.text == "Nothing to comment: the line is blank.")
    }

    static let selectWordVectors: [(text: String, cursor: Int, presses: Int, selected: String)] = [
        ("let total = 42", 5, 1, "total"),
        ("let total = 42", 9, 1, "total"),
        ("let total = 42", 0, 2, "let total"),
        ("a.bc.def", 0, 3, "a.bc.def"),
        ("foo", 3, 1, "foo"),
        ("x = $el_1;", 4, 1, "$el_1"),
    ]

    @Test(arguments: selectWordVectors)
    func altWSelectsWordsAndGrows(_ vector: (text: String, cursor: Int, presses: Int, selected: String)) {
        var state = Self.editor(vector.text, anchor: .at(0, vector.cursor))
        state.press(.character("w"), times: vector.presses, .alt)
        #expect(state.text == vector.text)
        #expect(String(state.lines[0][state.selection.range.start.column..<state.selection.range.end.column]) == vector.selected)
    }

    @Test func altWWithNoWordSaysSo() {
        var state = Self.editor("  ;;", anchor: .at(0, 0))
        state.press(.character("w"), .alt)
        #expect(state.selection.isEmpty)
        #expect(state.message?.text == "No word here to select.")
    }

    @Test func controlLSelectsTheLineAndAgainTheNext() {
        var state = Self.editor("a\nbb\ncc", anchor: .at(0, 1))
        state.control("l")
        #expect(state.selection == Selection(anchor: .at(0, 0), head: .at(1, 0)))
        state.control("l")
        #expect(state.selection == Selection(anchor: .at(0, 0), head: .at(2, 0)))
        state.control("l")
        #expect(state.selection == Selection(anchor: .at(0, 0), head: .at(2, 2)))
        state.press(.right)
        state.control("l")
        #expect(state.selection == Selection(anchor: .at(2, 0), head: .at(2, 2)), "a fresh Ctrl-L starts over")
        state.control("k")
        #expect(state.text == "a\nbb")
    }
}

@Suite("Editor: the key table, the help screen and keys that do nothing")
struct EditorKeyTableTests {
    @Test func everyCommandHasOneRowAndNoKeyIsBoundTwice() {
        for command in EditorCommand.allCases {
            #expect(KeyBindings.all.filter { $0.command == command }.count == 1, "\(command)")
        }
        let keys = KeyBindings.all.flatMap(\.keys)
        #expect(Set(keys).count == keys.count)
    }

    @Test(arguments: KeyBindings.all.map(\.command))
    func everyKeyOfTheTableRunsItsCommand(_ command: EditorCommand) {
        for key in KeyBindings.binding(for: command).keys {
            #expect(KeyBindings.command(for: key) == command, "\(key.displayName)")
        }
    }

    @Test func theHelpScreenListsEveryBindingUnderItsSection() {
        let rows = HelpScreen.rows
        for binding in KeyBindings.all {
            let row = rows.firstIndex(of: .keys(binding.label, binding.summary))
            let heading = rows.firstIndex(of: .heading(binding.section.rawValue))
            #expect(row != nil && heading != nil && heading! < row!, "\(binding.label)")
        }
    }

    @Test func f1OpensTheHelpScreenAndEscClosesIt() {
        var state = EditorState.make("x", rows: 40)
        state.press(.function(1))
        let shown = state.screenRows()
        #expect(shown.contains { $0.contains("Keys (Esc closes") })
        #expect(shown.contains { $0.contains("Ctrl-F") && $0.contains("Find") })
        #expect(shown.contains { $0.contains("Ctrl-G") && $0.contains("Go to a line") })
        state.press(.end)
        #expect(state.screenRows().contains { $0.contains("Other keys say what they do not do") })
        state.press(.escape)
        #expect(!state.screenRows().contains { $0.contains("Keys (Esc closes") })
        #expect(state.text == "x")
    }

    /// On a narrow terminal the summaries wrap at spaces: every word of every summary is whole
    /// on some row of the help screen.
    @Test func theHelpScreenWrapsSummariesBetweenWords() {
        var state = EditorState.make("x", columns: 64, rows: 200)
        state.press(.function(1))
        let shown = state.screenRows().joined(separator: "\n")
        var words = 0
        for case let .keys(_, summary) in HelpScreen.rows {
            for word in summary.split(separator: " ") where word.count > 1 {
                words += 1
                #expect(shown.contains(word), "“\(word)” of “\(summary)” is broken across rows")
            }
        }
        #expect(words > 50)
    }

    @Test func theStatusLineHintsAreKeysOfTheTable() {
        let state = EditorState.make("x", columns: 200)
        guard case .hints(let hints, _) = EditorScreen.statusContent(for: state) else {
            Issue.record("no hints")
            return
        }
        for command: EditorCommand in [.run, .help, .find, .goToLine] {
            #expect(hints.contains(KeyBindings.hint(command)), "\(command)")
        }
        #expect(state.screenRows().last?.contains("F1 Help") == true)
    }

    @Test(arguments: [KeyEvent.control("t"), KeyEvent(.function(2)), KeyEvent(.character("x"), .alt), KeyEvent(.insert)])
    func aKeyThatDoesNothingSaysSo(_ key: KeyEvent) {
        var state = EditorState.make("abc")
        _ = state.handle(.key(key))
        #expect(state.text == "abc")
        #expect(state.message?.text == "\(key.displayName) does nothing here. F1 lists the keys.")
        #expect(state.screenRows().last?.contains("does nothing here") == true)
    }
}
