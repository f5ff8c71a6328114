import Testing
@testable import TerminalUI

@Suite("Editor: find, replace, go to line")
struct EditorFindTests {
    /// An editor with the find bar open on `query`, typed key by key as a user would.
    static func finding(_ query: String, in text: String, from position: TextPosition = .zero) -> EditorState {
        var state = EditorState.make(text)
        state.moveCursor(to: position, extending: false)
        state.control("f")
        state.type(query)
        return state
    }

    @Test func typingAQuerySelectsTheFirstMatchFromTheCursorAndCountsThem() throws {
        let state = Self.finding("foo", in: "a foo\nFOO b\nfoo", from: .at(0, 3))
        #expect(state.selection == Selection(anchor: .at(1, 0), head: .at(1, 3)))
        guard case .find(let bar) = state.prompt else { Issue.record("no find bar"); return }
        #expect(bar.matchCount == 3)
        #expect(bar.status == "2 of 3")
    }

    @Test func everyMatchOnScreenIsHighlighted() {
        let state = Self.finding("ab", in: "ab ab\nnone\nxAB")
        #expect(state.searchHighlights == [0: [0..<2, 3..<5], 2: [1..<3]])
        let drawn = EditorScreen.render(state).grid
        let area = state.layout.textArea
        #expect(drawn[area.x + 3, area.y].style != drawn[area.x + 2, area.y].style, "the second match is not drawn apart from the space before it")
    }

    struct Step: Sendable, CustomStringConvertible {
        var key: KeyEvent
        var selected: TextPosition
        var message: String?
        var description: String { key.displayName }
    }

    /// Enter and ↓ go forward, ↑ back, and both go round the document's ends with a message.
    @Test func nextAndPreviousGoRoundTheEnds() {
        var state = Self.finding("x", in: "x.x\n..\nx")
        #expect(state.selection.range.start == .at(0, 0))
        let steps: [Step] = [
            Step(key: KeyEvent(.enter), selected: .at(0, 2)),
            Step(key: KeyEvent(.down), selected: .at(2, 0)),
            Step(key: KeyEvent(.enter), selected: .at(0, 0), message: "Searched past the end: back at the top."),
            Step(key: KeyEvent(.up), selected: .at(2, 0), message: "Searched past the top: back at the end."),
            Step(key: KeyEvent(.up), selected: .at(0, 2)),
        ]
        for step in steps {
            _ = state.handle(.key(step.key))
            #expect(state.selection.range.start == step.selected, "after \(step)")
            #expect(state.message?.text == step.message, "after \(step)")
        }
    }

    @Test func theBarNumbersTheMatchGoneToRoundTheEnds() {
        var state = Self.finding("ab", in: "ab\nab ab\nno")
        func status() -> String? {
            if case .find(let bar) = state.prompt { bar.status } else { nil }
        }
        #expect(status() == "1 of 3")
        var seen: [String?] = []
        for key: Key in [.enter, .enter, .enter, .up, .up] {
            state.press(key)
            seen.append(status())
        }
        #expect(seen == ["2 of 3", "3 of 3", "1 of 3", "3 of 3", "2 of 3"])
        var single = Self.finding("no", in: "ab\nno")
        single.press(.enter)
        if case .find(let bar) = single.prompt { #expect(bar.status == "1 of 1") }
    }

    @Test func anEditWithTheBarOpenIsCountedAgain() {
        var state = Self.finding("x", in: "x\ny")
        state.control("d")
        #expect(state.text == "x\nx\ny")
        state.press(.enter)
        guard case .find(let bar) = state.prompt else { Issue.record("no find bar"); return }
        #expect(bar.status == "1 of 2")
    }

    @Test func f3FindsAgainWithTheBarClosed() {
        var state = Self.finding("let", in: "let a\nlet b\n")
        state.press(.escape)
        #expect(state.prompt == nil)
        state.press(.function(3))
        #expect(state.selection.range.start == .at(1, 0))
        state.press(.function(3), .shift)
        #expect(state.selection.range.start == .at(0, 0))
    }

    /// Ctrl-F after a search offers it: the first character typed replaces it instead of being
    /// added to it, as in micro and the browsers.
    @Test func typingReplacesTheOfferedLastSearch() {
        var state = Self.finding("foo", in: "foo bar\nbar foo")
        state.press(.escape)
        state.control("f")
        guard case .find(let offered) = state.prompt else { Issue.record("no find bar"); return }
        #expect(offered.query.text == "foo" && offered.isQueryOffered)
        state.type("bar")
        guard case .find(let bar) = state.prompt else { Issue.record("no find bar"); return }
        #expect(bar.query.text == "bar")
        #expect(!bar.isQueryOffered)
        #expect(state.selection.range == TextRange(.at(0, 4), .at(0, 7)))
    }

    @Test func backspaceClearsTheOfferedSearchAndTypingThenAdds() {
        var state = Self.finding("foo", in: "foo xy")
        state.press(.escape)
        state.control("f")
        state.press(.backspace)
        guard case .find(let cleared) = state.prompt else { Issue.record("no find bar"); return }
        #expect(cleared.query.text == "")
        state.type("xy")
        guard case .find(let bar) = state.prompt else { Issue.record("no find bar"); return }
        #expect(bar.query.text == "xy")
        #expect(state.selection.range == TextRange(.at(0, 4), .at(0, 6)))
    }

    /// Enter with nothing typed searches the offered text again: the next match.
    @Test func enterSearchesTheOfferedTextAgain() {
        var state = Self.finding("ab", in: "ab\nab\nab")
        state.press(.escape)
        state.moveCursor(to: .zero, extending: false)
        state.control("f")
        #expect(state.selection.range.start == .at(0, 0))
        state.press(.enter)
        #expect(state.selection.range.start == .at(1, 0))
        guard case .find(let bar) = state.prompt else { Issue.record("no find bar"); return }
        #expect(bar.query.text == "ab")
        #expect(bar.status == "2 of 3")
    }

    /// The arrows accept the offered text for editing: typing then adds to it.
    @Test func anArrowKeepsTheOfferedTextForEditing() {
        var state = Self.finding("ab", in: "ab abc")
        state.press(.escape)
        state.control("f")
        state.press(.end)
        state.type("c")
        guard case .find(let bar) = state.prompt else { Issue.record("no find bar"); return }
        #expect(bar.query.text == "abc")
    }

    @Test func aPasteReplacesTheOfferedText() {
        var state = Self.finding("ab", in: "ab cd")
        state.press(.escape)
        state.control("f")
        _ = state.handle(.paste("cd"))
        guard case .find(let bar) = state.prompt else { Issue.record("no find bar"); return }
        #expect(bar.query.text == "cd")
        #expect(state.selection.range == TextRange(.at(0, 3), .at(0, 5)))
    }

    /// The offered text is drawn selected, and no longer once it is edited.
    @Test func theOfferedTextIsDrawnSelected() throws {
        var state = Self.finding("ab", in: "ab")
        state.press(.escape)
        state.control("f")
        func queryStyle() throws -> CellStyle {
            let frame = EditorScreen.render(state)
            let bar = try #require(state.layout.bar)
            let row = (0..<frame.grid.width).map { frame.grid[$0, bar.y].character }
            let x = try #require(row.indices.dropLast().first { row[$0] == "a" && row[$0 + 1] == "b" })
            return frame.grid[x, bar.y].style
        }
        #expect(try queryStyle().background == EditorView.selectionBackground)
        state.press(.end)
        #expect(try queryStyle().background == nil)
    }

    /// Ctrl-F in the open bar offers what was typed, as a browser's find bar selects it.
    @Test func ctrlFAgainOffersTheTypedQuery() {
        var state = Self.finding("ab", in: "ab cd")
        state.control("f")
        state.type("cd")
        guard case .find(let bar) = state.prompt else { Issue.record("no find bar"); return }
        #expect(bar.query.text == "cd")
    }

    @Test func altCSwitchesToMatchingCase() {
        var state = Self.finding("Foo", in: "foo Foo")
        #expect(state.selection.range.start == .at(0, 0))
        state.press(.character("c"), .alt)
        #expect(state.selection.range.start == .at(0, 4))
        #expect(state.searchHighlights == [0: [4..<7]])
        guard case .find(let bar) = state.prompt else { Issue.record("no find bar"); return }
        #expect(bar.matchCase && bar.matchCount == 1)
    }

    @Test func aQueryWithNoMatchSaysSo() {
        var state = Self.finding("zz", in: "abc")
        guard case .find(let bar) = state.prompt else { Issue.record("no find bar"); return }
        #expect(bar.status == "No match")
        state.press(.enter)
        #expect(state.message?.text == "No match for “zz”.")
    }

    @Test func matchesInsideWideAndCombinedCharactersMapToWholeCharacters() {
        let state = Self.finding("é", in: "caf\u{65}\u{301} café 日本é")
        #expect(state.searchHighlights[0] == [3..<4, 8..<9, 12..<13])
    }

    @Test func theSelectionOnOneLineBecomesTheQuery() {
        var state = EditorState.make("alpha beta alpha")
        state.selection = Selection(anchor: .at(0, 0), head: .at(0, 5))
        state.control("f")
        guard case .find(let bar) = state.prompt else { Issue.record("no find bar"); return }
        #expect(bar.query.text == "alpha")
        #expect(bar.matchCount == 2)
    }

    /// Ctrl-\: Tab to the replace field, Enter replaces the selected match and selects the next.
    @Test func replaceOneAtATime() {
        var state = EditorState.make("a1 a2 a3")
        state.control("\\")
        state.type("a")
        state.press(.tab)
        state.type("b")
        state.press(.enter)
        #expect(state.text == "b1 a2 a3")
        #expect(state.selection == Selection(anchor: .at(0, 3), head: .at(0, 4)))
        state.press(.enter)
        #expect(state.text == "b1 b2 a3")
        state.control("z")
        #expect(state.text == "b1 a2 a3")
    }

    @Test func replaceAllIsOneUndoStep() {
        var state = EditorState.make("cat\ncat cat\ndog")
        state.control("\\")
        state.type("cat")
        state.press(.tab)
        state.type("a cat")
        state.press(.character("a"), .alt)
        #expect(state.text == "a cat\na cat a cat\ndog")
        #expect(state.message?.text == "Replaced 3 matches. Ctrl-Z undoes them all.")
        state.press(.escape)
        state.control("z")
        #expect(state.text == "cat\ncat cat\ndog")
        state.control("y")
        #expect(state.text == "a cat\na cat a cat\ndog")
    }

    struct GoTo: Sendable, CustomStringConvertible {
        var typed: String
        var cursor: TextPosition
        var message: String?
        var description: String { typed }
    }

    static let goToVectors: [GoTo] = [
        GoTo(typed: "2", cursor: .at(1, 0)),
        GoTo(typed: "3:4", cursor: .at(2, 3)),
        GoTo(typed: " 3 : 2 ", cursor: .at(2, 1)),
        GoTo(typed: "99", cursor: .at(2, 0), message: "The script has 3 lines: went to the last."),
        GoTo(typed: "1:50", cursor: .at(0, 5), message: "Line 1 has 5 characters: went to its end."),
        GoTo(typed: "99:99", cursor: .at(2, 6), message: "The script has 3 lines: went to the last."),
    ]

    @Test(arguments: goToVectors)
    func goToLine(_ vector: GoTo) {
        var state = EditorState.make("first\nsecond\nthird!")
        state.control("g")
        state.type(vector.typed)
        state.press(.enter)
        #expect(state.prompt == nil)
        #expect(state.selection == Selection(caret: vector.cursor))
        #expect(state.message?.text == vector.message)
    }

    @Test(arguments: ["0", "x", "2:x", "1:2:3", ""])
    func goToLineRefusesWhatIsNotALine(_ typed: String) {
        var state = EditorState.make("a\nb")
        state.control("g")
        state.type(typed)
        state.press(.enter)
        #expect(state.message == .error("Type a line number, or line:column."))
        #expect(state.prompt != nil, "the bar stays open to correct it")
        state.press(.escape)
        #expect(state.prompt == nil)
    }

    @Test func theStatusLineShowsTheLineAndColumnGoneTo() {
        var state = EditorState.make((1...30).map { "line \($0)" }.joined(separator: "\n"))
        state.control("g")
        state.type("25:3")
        state.press(.enter)
        #expect(state.screenRows().last?.hasSuffix("Ln 25, Col 3 ") == true, "\(state.screenRows().last ?? "")")
        #expect(state.screenRows().contains { $0.contains("line 25") })
    }
}
