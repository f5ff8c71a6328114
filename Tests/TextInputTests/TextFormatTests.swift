import Foundation
import Testing
import TextInput

struct TextFormatTests {
    static let family = "👨‍👩‍👧‍👦"

    static let unlimited: [EditVector] = [
        EditVector("|", "a", "a"),
        EditVector("ab|", family, "ab\(family)"),
        EditVector("|", "🇫🇷", "🇫🇷"),
        EditVector("|", "日本語", "日本語"),
        EditVector("|", "שלום עולם", "שלום עולם"),
        EditVector("|", "مرحبا", "مرحبا"),
        EditVector("e|", "\u{301}", "e\u{301}"),
        EditVector("|", "\n", nil),
        EditVector("|", "\t", nil),
        EditVector("|", "\u{1B}", nil),
        EditVector("|", "\r\n", nil),
        EditVector("|", "\u{2028}", nil),
        EditVector("|", "John\nSmith", "John Smith"),
        EditVector("|", "a\r\n\r\nb", "a b"),
        EditVector("|", "a \nb", "a b"),
        EditVector("|", "\nJohn\n", "John"),
        EditVector("|", "\n\n", nil),
        EditVector("|", "a\u{200D}b", "a\u{200D}b"),
        EditVector("|", "\u{200F}abc", "\u{200F}abc"),
        EditVector("a[👍]b", "", "ab"),
        EditVector("a[bc]d", "日本", "a日本d"),
        EditVector("Hello [world]", family, "Hello \(family)"),
    ]

    @Test(arguments: unlimited)
    func filtering(_ vector: EditVector) {
        #expect(TextFormat().applying(vector.replacement, in: vector.range, to: vector.text) == vector.expected)
    }

    /// Control characters other than line breaks and tabs are refused, typed or pasted, in
    /// every field: dropping only the control character would leave the rest of an escape
    /// sequence ("[31m") in the text.
    static let controlCharacters: [EditVector] = [
        EditVector("|", "\u{1B}[31m", nil),
        EditVector("Name |", "\u{1B}[31mred\u{1B}[0m", nil),
        EditVector("|", "\u{9B}31m", nil),
        EditVector("|", "a\u{0}b", nil),
        EditVector("ab|", "\u{7F}", nil),
        EditVector("|", "\u{7}", nil),
        EditVector("|", "John\u{8}Smith", nil),
        EditVector("|", "\u{85}", nil),
    ]

    @Test(arguments: controlCharacters)
    func controlCharactersAreRefused(_ vector: EditVector) {
        #expect(TextFormat().applying(vector.replacement, in: vector.range, to: vector.text) == vector.expected)
        #expect(TextFormat(isMultiline: true).applying(vector.replacement, in: vector.range, to: vector.text) == vector.expected)
    }

    /// A multi-line field (a text view) takes line breaks and tabs as they are typed or pasted.
    static let multiline: [EditVector] = [
        EditVector("a|", "\n", "a\n"),
        EditVector("a|", "\t", "a\t"),
        EditVector("a|", "\r\n", "a\r\n"),
        EditVector("|", "John\nSmith", "John\nSmith"),
        EditVector("|", "if (x) {\n\treturn\n}", "if (x) {\n\treturn\n}"),
        EditVector("|", "line\u{2028}separator", "line\u{2028}separator"),
        EditVector("|", "a\n\u{1B}b", nil),
    ]

    @Test(arguments: multiline)
    func aMultilineFieldKeepsLineBreaksAndTabs(_ vector: EditVector) {
        #expect(TextFormat(isMultiline: true).applying(vector.replacement, in: vector.range, to: vector.text) == vector.expected)
    }

    static let fiveCharacters: [EditVector] = [
        EditVector("abcd|", family, "abcd\(family)"),
        EditVector("abcde|", "f", nil),
        EditVector("abc|", "xyz", "abcxy"),
        EditVector("abc|", "🇫🇷🇩🇪🇮🇹", "abc🇫🇷🇩🇪"),
        EditVector("abc|", "\(family)\(family)\(family)", "abc\(family)\(family)"),
        EditVector("abcde|", "\u{301}", "abcde\u{301}"),
        EditVector("a[bc]de", "xy", "axyde"),
        EditVector("a[bc]de", "xyz", "axyde"),
        EditVector("abcde|", "xy", nil),
        EditVector("|", "日本語の文章です", "日本語の文"),
        EditVector("abcd[e]", "", "abcd"),
    ]

    @Test(arguments: fiveCharacters)
    func maximumLength(_ vector: EditVector) {
        let result = TextFormat(maxLength: 5).applying(vector.replacement, in: vector.range, to: vector.text)
        #expect(result == vector.expected)
        #expect((result?.count ?? 0) <= 5)
    }

    /// Keystrokes typed one after another into a long field, each on the text the last one
    /// left, as a field does: the format counts only around each edit, and must agree with
    /// counting the whole text where an edit changes the characters beside it.
    struct Keystroke: Sendable, CustomTestStringConvertible {
        let name: String
        let typed: [String]
        let isMultiline: Bool

        init(_ name: String, _ typed: [String], isMultiline: Bool = false) {
            self.name = name
            self.typed = typed
            self.isMultiline = isMultiline
        }

        var testDescription: String { name }
    }

    static let keystrokes: [Keystroke] = [
        Keystroke("combining marks join the letter before them", ["e", "\u{301}", "\u{323}", "a", "\u{308}"]),
        Keystroke("a zero-width joiner and an emoji join the emoji before them",
                  ["👩", "\u{200D}", "👩", "\u{200D}", "👧", "🏽", "x"]),
        Keystroke("regional indicators pair into flags", ["🇫", "🇷", "🇩", "🇪", "🇮"]),
        Keystroke("CR then LF is one character", ["a", "\r", "\n", "\r", "b", "\n"], isMultiline: true),
        Keystroke("Hangul jamo join into syllables", ["\u{1100}", "\u{1161}", "\u{11A8}", "\u{1100}"]),
        Keystroke("a virama joins Devanagari consonants", ["क", "\u{94D}", "ष", "\u{93F}", "क"]),
        Keystroke("emoji and CJK", ["🙂", "東", "京", "👍🏾", "é"]),
    ]

    @Test(arguments: keystrokes)
    func keystrokesInALongTextAreCountedAroundTheEdit(_ keystroke: Keystroke) throws {
        let long = String(repeating: "Le café 東京 🙂 ñandú. ", count: 400)
        for position in [0, long.utf16.count / 2, long.utf16.count] {
            var text = long
            var caret = position
            for (step, typed) in keystroke.typed.enumerated() {
                var expected = text
                let index = try text.indexRange(of: NSRange(location: caret, length: 0), boundary: .unicodeScalar).lowerBound
                expected.insert(contentsOf: typed, at: index)
                let fits = TextFormat(maxLength: expected.count, boundary: .unicodeScalar, isMultiline: keystroke.isMultiline)
                let tooLong = TextFormat(maxLength: expected.count - 1, boundary: .unicodeScalar, isMultiline: keystroke.isMultiline)
                let edit = NSRange(location: caret, length: 0)
                // The first call counts the whole text; the second, on the same text, counts around the edit.
                for _ in 0..<2 {
                    #expect(fits.applying(typed, in: edit, to: text) == expected, "step \(step) at \(position)")
                    #expect(tooLong.applying(typed, in: edit, to: text) == nil, "step \(step) at \(position)")
                }
                text = expected
                caret += typed.utf16.count
            }
        }
    }

    /// A field typed to its limit and edited there: typing at the limit is refused, a deletion
    /// makes room, and the next keystroke fits again, each counted from the text the last one
    /// left.
    @Test
    func typingAtTheLimitAfterADeletion() throws {
        let format = TextFormat(maxLength: 6)
        var text = ""
        for typed in ["🇫", "🇷", "e", "\u{301}", "👩", "\u{200D}", "👩", "東", "京", "!"] {
            text = format.applying(typed, in: NSRange(location: text.utf16.count, length: 0), to: text) ?? text
        }
        #expect(text == "🇫🇷e\u{301}👩\u{200D}👩東京!")
        #expect(format.applying("x", in: NSRange(location: 0, length: 0), to: text) == nil)
        let deleted = try #require(format.applying("", in: NSRange(location: 4, length: 2), to: text))
        #expect(deleted == "🇫🇷👩\u{200D}👩東京!")
        #expect(format.applying("\u{301}", in: NSRange(location: 4, length: 0), to: deleted) == "🇫🇷\u{301}👩\u{200D}👩東京!")
        #expect(format.applying("x", in: NSRange(location: 4, length: 0), to: deleted) == "🇫🇷x👩\u{200D}👩東京!")
        #expect(format.applying("xy", in: NSRange(location: 4, length: 0), to: deleted) == "🇫🇷x👩\u{200D}👩東京!")
    }

    /// A paste into a long field at its limit is cut where the count, taken around the edit,
    /// reaches the limit; a regional indicator at the paste's start pairs with the one before it.
    @Test
    func aPasteIntoALongFieldIsCutAtTheLimit() {
        let long = String(repeating: "ñandú 🙂 東京. ", count: 500)
        let format = TextFormat(maxLength: long.count + 3)
        let end = NSRange(location: long.utf16.count, length: 0)
        #expect(format.applying("🇫🇷🇩🇪👍🏾é", in: end, to: long) == long + "🇫🇷🇩🇪👍🏾")
        let flagHalf = long + "🇫"
        #expect(TextFormat(maxLength: long.count + 3).applying("🇷🇩🇪ab", in: NSRange(location: flagHalf.utf16.count, length: 0), to: flagHalf)
            == long + "🇫🇷🇩🇪")
        #expect(format.applying("abcd", in: NSRange(location: 0, length: 0), to: long) == "abc" + long)
    }

    @Test
    func zeroLengthAcceptsNothing() {
        #expect(TextFormat(maxLength: 0).applying("a", in: NSRange(location: 0, length: 0), to: "") == nil)
        #expect(TextFormat(maxLength: 0).applying("ab", in: NSRange(location: 0, length: 0), to: "") == nil)
    }

    @Test
    func rangesInsideCharactersAreRefused() {
        let format = TextFormat()
        #expect(format.applying("x", in: NSRange(location: 1, length: 0), to: "👍") == nil)
        #expect(format.applying("", in: NSRange(location: 0, length: 8), to: Self.family) == nil)
        #expect(format.applying("", in: NSRange(location: 1, length: 1), to: "कि") == nil)
        #expect(format.applying("x", in: NSRange(location: 9, length: 0), to: "abc") == nil)
    }

    @Test
    func scalarBoundaryLetsAVowelSignBeDeleted() {
        let format = TextFormat(boundary: .unicodeScalar)
        #expect(format.applying("", in: NSRange(location: 1, length: 1), to: "कि") == "क")
        #expect(format.applying("x", in: NSRange(location: 1, length: 0), to: "👍") == nil)
    }

    @Test(arguments: [("", nil), (" ", " "), ("abc", "abc"), (family, family)] as [(String, String?)])
    func values(_ text: String, _ expected: String?) {
        #expect(TextFormat().value(from: text) == expected)
        if let expected {
            #expect(TextFormat().text(for: expected) == text)
        }
    }
}
