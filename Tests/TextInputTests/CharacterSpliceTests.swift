import Testing
@testable import TextInput

/// The count of characters around an edit, checked against counting the whole result, for every
/// edit of every scalar boundary of texts built from the scalars that join or split characters:
/// combining marks, zero-width joiners and emoji, skin tones, regional indicators (flags),
/// CR and LF, Hangul jamo, Devanagari with a virama (conjuncts).
struct CharacterSpliceTests {
    static let scalars: [String] = [
        "e", "\u{301}", "\u{200D}", "👩", "🏻", "🇫", "🇷", "\r", "\n", "\u{1100}", "\u{1161}", "\u{11A8}",
        "क", "\u{94D}", "ष", "\u{93F}", " ",
    ]

    static let texts: [String] = [
        "", "e", "ab", "e\u{301}\u{301}x", "👩\u{200D}👩\u{200D}👧", "👩🏻\u{200D}👩", "🇫🇷🇫🇷🇫🇷",
        "x🇫🇷🇫🇷🇫", "\r\n\r\n", "a\r\nb", "\u{1100}\u{1161}\u{11A8}\u{1100}", "क\u{94D}ष\u{93F}क",
        "e\u{301}🇫🇷\r\n👩\u{200D}👩 क\u{94D}ष",
    ]

    /// Every range between Unicode scalar boundaries of `text`.
    static func ranges(in text: String) -> [Range<String.Index>] {
        var boundaries = Array(text.unicodeScalars.indices)
        boundaries.append(text.endIndex)
        var ranges: [Range<String.Index>] = []
        for (lowerPosition, lower) in boundaries.enumerated() {
            for upper in boundaries[lowerPosition...] where text.unicodeScalars.distance(from: lower, to: upper) <= 3 {
                ranges.append(lower..<upper)
            }
        }
        return ranges
    }

    static let insertions: [String] = scalars + ["", "🇫🇷", "\u{301}e", "ab", "🇷🇫", "\n\r"]

    @Test(arguments: texts)
    func theCountAroundAnEditIsTheCountOfTheWholeResult(_ text: String) {
        for bounds in Self.ranges(in: text) {
            for insertion in Self.insertions {
                var result = text
                result.replaceSubrange(bounds, with: insertion)
                let counted = text.characterCount(replacing: bounds, with: insertion[...], knownCount: text.count)
                #expect(counted == result.count, "\(text.debugDescription) \(bounds) ← \(insertion.debugDescription)")
            }
        }
    }

    @Test(arguments: texts)
    func theCountKeptAroundAnEditIsTheCountOfBothSides(_ text: String) {
        for bounds in Self.ranges(in: text) {
            let expected = String(text[..<bounds.lowerBound]).count + String(text[bounds.upperBound...]).count
            #expect(text.characterCount(keptAround: bounds, knownCount: text.count) == expected,
                    "\(text.debugDescription) \(bounds)")
        }
    }

    /// A regional indicator typed before a run of flags re-pairs every flag after it: the window
    /// must grow to the end of the run.
    @Test
    func aRegionalIndicatorReparsesTheWholeRunOfFlags() {
        let text = "a" + String(repeating: "🇫🇷", count: 20) + "b"
        let start = text.index(after: text.startIndex)
        let counted = text.characterCount(replacing: start..<start, with: "🇩", knownCount: text.count)
        #expect(counted == ("a🇩" + String(repeating: "🇫🇷", count: 20) + "b").count)
        #expect(counted == text.count + 1)
    }
}
