import Testing
@testable import TerminalUI

@Suite("Glyph width")
struct GlyphWidthTests {
    @Test(arguments: [
        ("a", 1), ("~", 1), ("é", 1), ("e\u{301}", 1), ("Ж", 1), ("─", 1),
        ("日", 2), ("本", 2), ("한", 2), ("ｱ", 1), ("Ａ", 2), ("　", 2),
        ("🎉", 2), ("😀", 2), ("👍🏽", 2), ("👩‍💻", 2), ("👨‍👩‍👧‍👦", 2), ("🇯🇵", 2),
        ("❤️", 2), ("❤", 1), ("☺️", 2), ("1️⃣", 2),
        ("\u{301}", 0), ("\u{200B}", 0),
    ] as [(Character, Int)])
    func characterWidth(_ character: Character, _ width: Int) {
        #expect(GlyphWidth.columns(of: character) == width)
    }

    @Test func stringWidthSumsCharacters() {
        #expect(GlyphWidth.columns(of: "ab日本🎉") == 8)
        #expect(GlyphWidth.columns(of: "") == 0)
    }

    @Test func tablesAreSortedAndDisjoint() {
        for table in [GlyphWidth.eastAsianWide, GlyphWidth.emojiPresentation, GlyphWidth.zeroWidth] {
            for (first, second) in zip(table, table.dropFirst()) {
                #expect(first.upperBound < second.lowerBound)
            }
        }
    }

    /// The quick ASCII test the editor uses on every character: one byte of UTF-8 or nothing
    /// (not even for "\r\n", which `asciiValue` calls a line feed).
    @Test(arguments: [
        ("a", 0x61), (" ", 0x20), ("\t", 0x09), ("\u{7F}", 0x7F),
        ("é", nil), ("e\u{301}", nil), ("\r\n", nil), ("日", nil), ("🙂", nil),
    ] as [(Character, UInt8?)])
    func singleByteIsTheASCIIByte(_ character: Character, _ byte: UInt8?) {
        #expect(character.singleByte == byte)
    }
}
