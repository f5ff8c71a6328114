import Testing
@testable import TerminalUI

@Suite("Editor: undo and redo")
struct EditorHistoryTests {
    @Test func undoRemovesATypedWordAtATime() {
        var state = EditorState.make()
        state.type("hello world")
        state.control("z")
        #expect(state.text == "hello ")
        state.control("z")
        #expect(state.text == "")
        state.control("y")
        #expect(state.text == "hello ")
        state.control("y")
        #expect(state.text == "hello world")
    }

    @Test func movingTheCursorEndsATypedRun() {
        var state = EditorState.make()
        state.type("ab")
        state.press(.left)
        state.press(.right)
        state.type("cd")
        state.control("z")
        #expect(state.text == "ab")
    }

    @Test func backspaceRunIsOneStep() {
        var state = EditorState.make("abcdef")
        state.press(.end)
        state.press(.backspace, times: 3)
        #expect(state.text == "abc")
        state.control("z")
        #expect(state.text == "abcdef")
        #expect(state.cursor == .at(0, 6))
    }

    @Test func deleteRunIsOneStepAndRedoes() {
        var state = EditorState.make("abcdef")
        state.press(.delete, times: 3)
        #expect(state.text == "def")
        state.control("z")
        #expect(state.text == "abcdef")
        state.control("y")
        #expect(state.text == "def")
    }

    @Test func newlineIsItsOwnStep() {
        var state = EditorState.make()
        state.type("a\nb")
        state.control("z")
        #expect(state.text == "a\n")
        state.control("z")
        #expect(state.text == "a")
    }

    @Test func undoRestoresTheSelection() {
        var state = EditorState.make("abc")
        state.press(.right, times: 2, .shift)
        state.press(.backspace)
        #expect(state.text == "c")
        state.control("z")
        #expect(state.text == "abc")
        #expect(state.selection.range == TextRange(.at(0, 0), .at(0, 2)))
    }

    @Test func aNewEditClearsRedo() {
        var state = EditorState.make()
        state.type("a")
        state.control("z")
        state.type("b")
        state.control("y")
        #expect(state.text == "b")
    }

    @Test func undoOfIndentingLinesIsOneStep() {
        var state = EditorState.make("a\nb\nc\n")
        state.control("a")
        state.press(.tab)
        #expect(state.text == "  a\n  b\n  c\n")
        state.control("z")
        #expect(state.text == "a\nb\nc\n")
    }

    @Test func cutAndPasteUndo() {
        var state = EditorState.make("one two")
        state.press(.right, times: 4, .shift)
        state.control("x")
        state.press(.end)
        state.control("v")
        #expect(state.text == "twoone ")
        state.control("z")
        #expect(state.text == "two")
        state.control("z")
        #expect(state.text == "one two")
    }

    @Test func unsavedChangesFollowTheRevision() {
        var state = EditorState.make("saved")
        #expect(!state.hasUnsavedChanges)
        state.type("x")
        #expect(state.hasUnsavedChanges)
        state.control("z")
        #expect(!state.hasUnsavedChanges)
        state.control("y")
        #expect(state.hasUnsavedChanges)
    }

    /// A 1 MB bracketed paste is inserted as one step, undone in one step, and both are fast:
    /// the buffer and the history work in time linear in the text.
    @Test func oneMegabytePasteIsOneUndoStepAndFast() {
        let line = "const value = compute(1, 2, 3); // 日本語 🎉 filler text\n"
        let pasted = String(repeating: line, count: 1_048_576 / line.utf8.count + 1)
        #expect(pasted.utf8.count > 1_048_576)
        var state = EditorState.make("before\n")
        state.press(.end, .control)
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            _ = state.handle(.paste(pasted))
        }
        #expect(state.text == "before\n" + pasted)
        #expect(state.history.undoSteps.count == 1)
        #expect(state.cursor == state.buffer.endPosition)
        let undoTime = clock.measure {
            state.control("z")
        }
        #expect(state.text == "before\n")
        #expect(!state.hasUnsavedChanges)
        // Generous bounds for unoptimised builds; quadratic behaviour takes minutes.
        #expect(elapsed < .seconds(10))
        #expect(undoTime < .seconds(10))
        state.control("y")
        #expect(state.text.utf8.count == 7 + pasted.utf8.count)
    }

    @Test func historyMerging() {
        let first = AppliedEdit(start: .at(0, 0), removedEnd: .at(0, 0), insertedEnd: .at(0, 1), removed: "", inserted: "a")
        let second = AppliedEdit(start: .at(0, 1), removedEnd: .at(0, 1), insertedEnd: .at(0, 2), removed: "", inserted: "b")
        let merged = UndoHistory.merge(first, second, kind: .typing)
        #expect(merged?.inserted == "ab")
        #expect(merged?.insertedEnd == .at(0, 2))
        let elsewhere = AppliedEdit(start: .at(3, 0), removedEnd: .at(3, 0), insertedEnd: .at(3, 1), removed: "", inserted: "c")
        #expect(UndoHistory.merge(first, elsewhere, kind: .typing) == nil)
        #expect(UndoHistory.merge(first, second, kind: .other) == nil)
    }
}
