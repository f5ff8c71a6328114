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
