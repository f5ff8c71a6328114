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
}
