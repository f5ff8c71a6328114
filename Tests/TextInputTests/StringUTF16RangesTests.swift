import Foundation
import Testing
import TextInput

struct StringUTF16RangesTests {
    static let family = "👨‍👩‍👧‍👦"

    @Test(arguments: ["", "abc", "a👍b", "🇫🇷\(family)e\u{301}", "日本語", "مَرحبا"])
    func indexRangesRoundTrip(_ text: String) throws {
        // Every character range converts to UTF-16 and back unchanged.
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(after: index)
            let utf16 = text.utf16Range(of: index..<next)
            #expect(try text.indexRange(of: utf16) == index..<next)
            #expect(Range(utf16, in: text) == index..<next)
            index = next
        }
        #expect(text.utf16Range(of: text.startIndex..<text.endIndex) == NSRange(location: 0, length: text.utf16.count))
    }

    struct ExpandVector: Sendable, CustomTestStringConvertible {
        let text: String
        let range: NSRange
        let expected: NSRange
        var testDescription: String { "\(text) \(range) → \(expected)" }
        init(_ text: String, _ location: Int, _ length: Int, _ expectedLocation: Int, _ expectedLength: Int) {
            self.text = text
            range = NSRange(location: location, length: length)
            expected = NSRange(location: expectedLocation, length: expectedLength)
        }
    }

    static let expandVectors: [ExpandVector] = [
        ExpandVector("e\u{301}x", 0, 1, 0, 2),
        ExpandVector("e\u{301}x", 1, 1, 0, 2),
        ExpandVector("e\u{301}x", 2, 1, 2, 1),
        ExpandVector("a\(family)b", 3, 2, 1, 11),
        ExpandVector("🇫🇷🇩🇪", 2, 4, 0, 8),
        ExpandVector("a👍b", 2, 0, 1, 0),
        ExpandVector("a👍b", 2, 1, 1, 2),
        ExpandVector("a👍b", 0, 2, 0, 3),
        ExpandVector("कि", 1, 0, 0, 0),
        ExpandVector("abc", 1, 1, 1, 1),
    ]

    @Test(arguments: expandVectors)
    func expandToCharacters(_ vector: ExpandVector) throws {
        #expect(try vector.text.rangeExpandedToCharacters(vector.range) == vector.expected)
    }

    @Test
    func expandingOutOfBoundsThrows() {
        #expect(throws: TextEditError.outOfBounds(location: 2, length: 5, utf16Length: 3)) {
            try "abc".rangeExpandedToCharacters(NSRange(location: 2, length: 5))
        }
    }

    @Test(arguments: [
        ("a👍b", 2, 1, 3),
        ("e\u{301}", 1, 0, 2),
        ("🇫🇷🇩🇪", 2, 0, 4),
        ("🇫🇷🇩🇪", 4, 4, 4),
        ("\(family)", 5, 0, 11),
        ("abc", 0, 0, 0),
        ("abc", 3, 3, 3),
    ])
    func snapOffsets(_ text: String, _ offset: Int, _ before: Int, _ after: Int) throws {
        #expect(try text.characterBoundary(atOrBefore: offset) == before)
        #expect(try text.characterBoundary(atOrAfter: offset) == after)
    }

    @Test(arguments: [
        ("a👍b", 0, true), ("a👍b", 1, true), ("a👍b", 2, false), ("a👍b", 3, true), ("a👍b", 4, true),
        ("a👍b", 5, false), ("a👍b", -1, false), ("e\u{301}", 1, false), ("🇫🇷🇩🇪", 2, false), ("🇫🇷🇩🇪", 4, true),
    ])
    func boundaries(_ text: String, _ offset: Int, _ expected: Bool) {
        #expect(text.isBoundary(atUTF16Offset: offset) == expected)
    }

    @Test
    func scalarBoundaryInsideACharacter() {
        #expect("e\u{301}".isBoundary(atUTF16Offset: 1, .unicodeScalar))
        #expect(!"👍".isBoundary(atUTF16Offset: 1, .unicodeScalar))
    }

    @Test(arguments: [
        ("ab\(family)", 13, NSRange(location: 2, length: 11) as NSRange?),
        ("a🇫🇷", 5, NSRange(location: 1, length: 4)),
        ("e\u{301}", 2, NSRange(location: 0, length: 2)),
        ("abc", 0, nil),
        ("a👍", 2, nil),
        ("abc", 9, nil),
    ])
    func backspaceRange(_ text: String, _ caret: Int, _ expected: NSRange?) {
        #expect(text.rangeOfCharacter(endingAt: caret) == expected)
    }

    @Test(arguments: [
        ("\(family)b", 0, NSRange(location: 0, length: 11) as NSRange?),
        ("a🇫🇷", 1, NSRange(location: 1, length: 4)),
        ("abc", 3, nil),
        ("a👍", 2, nil),
    ])
    func forwardDeleteRange(_ text: String, _ caret: Int, _ expected: NSRange?) {
        #expect(text.rangeOfCharacter(startingAt: caret) == expected)
    }
}
