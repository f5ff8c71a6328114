import Testing
@testable import TerminalUI

@Suite("Cell grid and frame diff")
struct FrameRendererTests {
    static func grid(_ rows: [String], width: Int = 20) -> CellGrid {
        var grid = CellGrid(width: width, height: rows.count)
        for (y, row) in rows.enumerated() {
            grid.write(row, x: 0, y: y, style: .plain)
        }
        return grid
    }

    static func text(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    @Test func firstFrameClearsAndDrawsEverything() {
        var renderer = FrameRenderer()
        let output = Self.text(renderer.render(Self.grid(["hello", "world"]), cursor: CursorPlacement(x: 0, y: 0)))
        #expect(output.contains(ANSI.clearScreen))
        #expect(output.contains("hello"))
        #expect(output.contains("world"))
    }

    @Test func unchangedFrameWritesNothing() {
        var renderer = FrameRenderer()
        let frame = Self.grid(["hello", "world"])
        _ = renderer.render(frame, cursor: CursorPlacement(x: 1, y: 1))
        #expect(renderer.render(frame, cursor: CursorPlacement(x: 1, y: 1)).isEmpty)
    }

    @Test func oneCharacterEditWritesOnlyAFewBytes() {
        var renderer = FrameRenderer()
        let rows = (0..<24).map { "line \($0) of some text here" }
        let before = Self.grid(rows, width: 80)
        _ = renderer.render(before, cursor: CursorPlacement(x: 0, y: 0))
        var after = before
        after.put("X", x: 5, y: 10, style: .plain)
        let bytes = renderer.render(after, cursor: CursorPlacement(x: 6, y: 10))
        // A cursor move to the cell and the character; the cursor then already sits after it.
        #expect(Self.text(bytes) == "\u{1B}[11;6HX")
        #expect(bytes.count < 16)
    }

    @Test func typingAtTheCursorNeedsNoCursorMove() {
        var renderer = FrameRenderer()
        let before = Self.grid(["ab"])
        _ = renderer.render(before, cursor: CursorPlacement(x: 2, y: 0))
        var after = before
        after.put("c", x: 2, y: 0, style: .plain)
        #expect(Self.text(renderer.render(after, cursor: CursorPlacement(x: 3, y: 0))) == "c")
    }

    @Test func adjacentChangesShareOneCursorMove() {
        var renderer = FrameRenderer()
        _ = renderer.render(Self.grid(["abcdef"]), cursor: nil)
        let output = Self.text(renderer.render(Self.grid(["aXYdef"]), cursor: nil))
        #expect(output == "\u{1B}[1;2HXY")
    }

    @Test func styleChangeEmitsSGRAndReset() {
        var renderer = FrameRenderer()
        let before = Self.grid(["abc"])
        _ = renderer.render(before, cursor: nil)
        var after = before
        after.put("b", x: 1, y: 0, style: CellStyle(foreground: .red, attributes: .bold))
        let output = Self.text(renderer.render(after, cursor: nil))
        #expect(output == "\u{1B}[1;2H\u{1B}[0;1;31mb\u{1B}[0m")
    }

    struct SGR: Sendable, CustomStringConvertible {
        var style: CellStyle
        var sequence: String
        var description: String { sequence.debugDescription }
    }

    static let sgrVectors: [SGR] = [
        SGR(style: .plain, sequence: "\u{1B}[0m"),
        SGR(style: CellStyle(attributes: [.bold, .dim, .italic, .underline, .reverse]), sequence: "\u{1B}[0;1;2;3;4;7m"),
        SGR(style: CellStyle(foreground: .brightBlack, background: .blue), sequence: "\u{1B}[0;90;44m"),
        SGR(style: CellStyle(foreground: .white, background: .brightWhite), sequence: "\u{1B}[0;37;107m"),
        SGR(style: CellStyle(foreground: .indexed(208), background: .indexed(7)), sequence: "\u{1B}[0;38;5;208;48;5;7m"),
        SGR(style: CellStyle(foreground: .rgb(255, 0, 10), background: .rgb(1, 22, 133), attributes: .underline),
            sequence: "\u{1B}[0;4;38;2;255;0;10;48;2;1;22;133m"),
    ]

    /// Each style is written as one SGR sequence that starts from a reset.
    @Test(arguments: sgrVectors)
    func stylesAreWrittenAsSGRSequences(_ vector: SGR) {
        var bytes: [UInt8] = []
        vector.style.appendSGRSequence(to: &bytes)
        #expect(Self.text(bytes) == vector.sequence)
    }

    /// Cursor moves count from 1 and write every digit.
    @Test func cursorMovesWriteOneBasedPositions() {
        var bytes: [UInt8] = []
        ANSI.appendMoveCursor(x: 0, y: 99, to: &bytes)
        ANSI.appendMoveCursor(x: 1209, y: 9, to: &bytes)
        #expect(Self.text(bytes) == "\u{1B}[100;1H\u{1B}[10;1210H")
    }

    @Test func resizeRedrawsEverything() {
        var renderer = FrameRenderer()
        _ = renderer.render(Self.grid(["hello"], width: 20), cursor: nil)
        let output = Self.text(renderer.render(Self.grid(["hello"], width: 30), cursor: nil))
        #expect(output.contains(ANSI.clearScreen))
        #expect(output.contains("hello"))
    }

    @Test func invalidateRedrawsEverything() {
        var renderer = FrameRenderer()
        let frame = Self.grid(["hello"])
        _ = renderer.render(frame, cursor: nil)
        renderer.invalidate()
        let output = Self.text(renderer.render(frame, cursor: nil))
        #expect(output.contains(ANSI.clearScreen))
        #expect(output.contains("hello"))
    }

    @Test func wideCharacterOccupiesTwoCells() {
        let grid = Self.grid(["a日b"])
        #expect(grid[1, 0].character == "日")
        #expect(grid[1, 0].width == 2)
        #expect(grid[2, 0].isContinuation)
        #expect(grid[3, 0].character == "b")
    }

    @Test func wideCharacterIsWrittenOnceAndCursorAdvancesTwo() {
        var renderer = FrameRenderer()
        _ = renderer.render(Self.grid(["abcd"]), cursor: nil)
        let output = Self.text(renderer.render(Self.grid(["日本"]), cursor: nil))
        #expect(output == "\u{1B}[1;1H日本")
    }

    @Test func replacingAWideCharacterWithNarrowOnesRewritesBothCells() {
        var renderer = FrameRenderer()
        _ = renderer.render(Self.grid(["日x"]), cursor: nil)
        let output = Self.text(renderer.render(Self.grid(["abx"]), cursor: nil))
        #expect(output == "\u{1B}[1;1Hab")
    }

    @Test func overwritingHalfAWideCharacterBlanksTheOtherHalf() {
        var grid = Self.grid(["日本"])
        grid.put("x", x: 1, y: 0, style: .plain)
        #expect(grid[0, 0].character == " ")
        #expect(grid[0, 0].width == 1)
        #expect(grid[1, 0].character == "x")
        #expect(grid[2, 0].character == "本")
    }

    @Test func wideCharacterAtTheLastColumnBecomesASpace() {
        var grid = CellGrid(width: 3, height: 1)
        let end = grid.write("ab日", x: 0, y: 0, style: .plain)
        #expect(end == 3)
        #expect(grid[2, 0].character == " ")
        #expect(grid[2, 0].width == 1)
    }

    @Test func controlCharactersAreNeverWrittenRaw() {
        var grid = CellGrid(width: 20, height: 1)
        grid.write("a\u{1B}[2J\u{9B}b", x: 0, y: 0, style: .plain)
        var renderer = FrameRenderer()
        let bytes = renderer.render(grid, cursor: nil)
        let drawn = (0..<20).map { grid[$0, 0].character }
        #expect(String(drawn).hasPrefix("a\\e[2J\\u{9B}b"))
        #expect(!Self.text(bytes).contains("\u{1B}[2Ja"))
        #expect(!bytes.contains(0x9B) || !Self.text(bytes).unicodeScalars.contains("\u{9B}"))
    }

    @Test func exitSequenceUndoesTheEnterSequence() {
        #expect(EditorApp.exitSequence.description == ANSI.resetStyle + ANSI.disableBracketedPaste + ANSI.showCursor + ANSI.leaveAlternateScreen)
        #expect(ANSI.enterEditor.contains(ANSI.enterAlternateScreen))
        #expect(ANSI.enterEditor.contains(ANSI.enableBracketedPaste))
    }

    @Test func cursorIsPlacedAndShown() {
        var renderer = FrameRenderer()
        let frame = Self.grid(["abc"])
        _ = renderer.render(frame, cursor: nil)
        let output = Self.text(renderer.render(frame, cursor: CursorPlacement(x: 2, y: 0)))
        #expect(output == "\u{1B}[1;3H" + ANSI.showCursor)
    }
}
