import Testing
@testable import TerminalUI

@Suite("Viewport and columns")
struct ViewportTests {
    struct ColumnVector: Sendable, CustomTestStringConvertible {
        let line: String
        let column: Int
        let display: Int
        var testDescription: String { "\(line)@\(column)" }
    }

    @Test(arguments: [
        ColumnVector(line: "abc", column: 2, display: 2),
        ColumnVector(line: "日本語", column: 1, display: 2),
        ColumnVector(line: "日本語", column: 3, display: 6),
        ColumnVector(line: "a🎉b", column: 2, display: 3),
        ColumnVector(line: "👨‍👩‍👧x", column: 1, display: 2),
        ColumnVector(line: "é日e\u{301}", column: 3, display: 4),
        ColumnVector(line: "\tx", column: 1, display: 4),
        ColumnVector(line: "ab\tx", column: 3, display: 4),
        ColumnVector(line: "a\u{1B}b", column: 2, display: 3),
    ])
    func displayColumnsOfCursorPositions(_ vector: ColumnVector) {
        let line = Array(vector.line)
        #expect(LineMetrics.displayColumn(of: vector.column, in: line, tabWidth: 4) == vector.display)
    }

    @Test func columnAtDisplayColumnLandsOnTheCoveringCharacter() {
        let line = Array("a日本b")
        #expect(LineMetrics.column(atDisplayColumn: 0, in: line, tabWidth: 4) == 0)
        #expect(LineMetrics.column(atDisplayColumn: 1, in: line, tabWidth: 4) == 1)
        #expect(LineMetrics.column(atDisplayColumn: 2, in: line, tabWidth: 4) == 1)
        #expect(LineMetrics.column(atDisplayColumn: 3, in: line, tabWidth: 4) == 2)
        #expect(LineMetrics.column(atDisplayColumn: 5, in: line, tabWidth: 4) == 3)
        #expect(LineMetrics.column(atDisplayColumn: 99, in: line, tabWidth: 4) == 4)
    }

    @Test func cursorInsideViewDoesNotScroll() {
        let viewport = Viewport(top: 5, left: 3)
        #expect(viewport.scrolled(toShowRow: 7, column: 10, width: 1, visibleRows: 10, visibleColumns: 20) == viewport)
    }

    @Test func cursorBelowScrollsDownJustEnough() {
        let viewport = Viewport()
        #expect(viewport.scrolled(toShowRow: 30, column: 0, width: 1, visibleRows: 10, visibleColumns: 20).top == 21)
    }

    @Test func cursorAboveScrollsUp() {
        #expect(Viewport(top: 10).scrolled(toShowRow: 4, column: 0, width: 1, visibleRows: 10, visibleColumns: 20).top == 4)
    }

    @Test func longLineScrollsHorizontallyAndBack() {
        let right = Viewport().scrolled(toShowRow: 0, column: 50, width: 1, visibleRows: 10, visibleColumns: 20)
        #expect(right.left == 31)
        let back = right.scrolled(toShowRow: 0, column: 5, width: 1, visibleRows: 10, visibleColumns: 20)
        #expect(back.left == 5)
    }

    /// A CJK line of 10 wide characters in a 9-column view: the cursor on the fifth character
    /// (display column 8) needs both of its cells visible, so the view scrolls by one more.
    @Test func wideCharacterAtTheRightEdgeScrollsItFullyIntoView() {
        let line = Array("日本語の文章を書きます")
        let column = LineMetrics.displayColumn(of: 4, in: line, tabWidth: 4)
        let width = LineMetrics.cursorWidth(at: 4, in: line, tabWidth: 4)
        #expect(column == 8)
        #expect(width == 2)
        let viewport = Viewport().scrolled(toShowRow: 0, column: column, width: width, visibleRows: 5, visibleColumns: 9)
        #expect(viewport.left == 1)
        #expect(column + width <= viewport.left + 9)
    }

    @Test func emojiAtTheRightEdge() {
        let line = Array("abcdefgh🎉")
        let column = LineMetrics.displayColumn(of: 8, in: line, tabWidth: 4)
        let width = LineMetrics.cursorWidth(at: 8, in: line, tabWidth: 4)
        let viewport = Viewport().scrolled(toShowRow: 0, column: column, width: width, visibleRows: 5, visibleColumns: 9)
        #expect(viewport.left == 1)
        // The cursor after the emoji, at the end of the line, needs one more column.
        let end = LineMetrics.displayColumn(of: 9, in: line, tabWidth: 4)
        #expect(viewport.scrolled(toShowRow: 0, column: end, width: 1, visibleRows: 5, visibleColumns: 9).left == 2)
    }
}
