import Testing
@testable import Benchmarking

struct EditorFrameTests {
    private let document = (1...100).map { "line \($0)" }.joined(separator: "\n")

    @Test func centresTheWindowOnTheCaretsLine() {
        // The start of line 50: the 49 lines before it and their line breaks.
        let caret = (1...49).map { "line \($0)\n".utf16.count }.reduce(0, +)
        let frame = EditorFrame(text: document, caretUTF16Offset: caret, rows: 10, columns: 80)
        #expect(frame.caretLine == 50)
        #expect(frame.firstLineNumber == 45)
        #expect(frame.lines.count == 10)
        #expect(frame.lines.first == "   45  line 45")
        #expect(frame.lines.last == "   54  line 54")
    }

    @Test func startsAtTheTopNearTheStartAndStopsAtTheEnd() {
        let top = EditorFrame(text: document, caretUTF16Offset: 0, rows: 10, columns: 80)
        #expect(top.caretLine == 1 && top.firstLineNumber == 1 && top.lines.first == "    1  line 1")
        let end = EditorFrame(text: document, caretUTF16Offset: document.utf16.count, rows: 10, columns: 80)
        #expect(end.caretLine == 100 && end.firstLineNumber == 95 && end.lines.count == 6)
    }

    @Test func cutsLongLinesAndCountsTheCaretInUTF16() {
        let text = "👋👋👋 wide\n" + String(repeating: "x", count: 300)
        let frame = EditorFrame(text: text, caretUTF16Offset: 2, rows: 4, columns: 20)
        #expect(frame.caretLine == 1)
        #expect(frame.lines == ["    1  👋👋👋 wide", "    2  " + String(repeating: "x", count: 20)])
    }
}
