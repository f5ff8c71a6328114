import Testing
@testable import TerminalUI

@Suite("Text buffer")
struct TextBufferTests {
    @Test func splitsLinesOnEveryLineEnding() {
        let buffer = TextBuffer("a\nb\r\nc\rd")
        #expect(buffer.lines.map { String($0) } == ["a", "b", "c", "d"])
        #expect(buffer.text == "a\nb\nc\nd")
    }

    @Test func emptyDocumentHasOneEmptyLine() {
        let buffer = TextBuffer("")
        #expect(buffer.lines == [[]])
        #expect(buffer.isEmpty)
    }

    @Test func columnsAreGraphemeClusters() {
        let buffer = TextBuffer("a👨‍👩‍👧b日")
        #expect(buffer.lines[0].count == 4)
        #expect(buffer.text(in: TextRange(TextPosition(row: 0, column: 1), TextPosition(row: 0, column: 2))) == "👨‍👩‍👧")
    }

    @Test func replaceWithinALine() {
        var buffer = TextBuffer("hello world")
        let end = buffer.replace(TextRange(TextPosition(row: 0, column: 6), TextPosition(row: 0, column: 11)), with: "日本")
        #expect(buffer.text == "hello 日本")
        #expect(end == TextPosition(row: 0, column: 8))
    }

    @Test func replaceAcrossLinesWithMultilineText() {
        var buffer = TextBuffer("one\ntwo\nthree")
        let end = buffer.replace(TextRange(TextPosition(row: 0, column: 2), TextPosition(row: 2, column: 1)), with: "X\nY\nZ")
        #expect(buffer.text == "onX\nY\nZhree")
        #expect(end == TextPosition(row: 2, column: 1))
    }

    @Test func textInRangeAcrossLines() {
        let buffer = TextBuffer("ab\ncd\nef")
        #expect(buffer.text(in: TextRange(TextPosition(row: 0, column: 1), TextPosition(row: 2, column: 1))) == "b\ncd\ne")
    }

    @Test func combiningMarkTypedAfterALetterJoinsIt() {
        var buffer = TextBuffer("e")
        let end = buffer.replace(TextRange(TextPosition(row: 0, column: 1), TextPosition(row: 0, column: 1)), with: "\u{301}")
        #expect(buffer.lines[0] == ["e\u{301}"])
        #expect(end == TextPosition(row: 0, column: 1))
    }

    @Test func emojiSequenceTypedScalarByScalarBecomesOneCharacter() {
        var buffer = TextBuffer("")
        var position = TextPosition.zero
        for scalar in "👩‍💻".unicodeScalars {
            position = buffer.replace(TextRange(position, position), with: String(scalar))
        }
        #expect(buffer.lines[0] == ["👩‍💻"])
        #expect(position == TextPosition(row: 0, column: 1))
    }

    @Test func positionsAreClamped() {
        let buffer = TextBuffer("ab\nc")
        #expect(buffer.clamped(TextPosition(row: 9, column: 9)) == TextPosition(row: 1, column: 1))
        #expect(buffer.clamped(TextPosition(row: -1, column: -1)) == .zero)
    }
}
