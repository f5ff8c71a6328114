import Foundation
import Testing
import TextInput

struct TextEditTests {
    struct Vector: Sendable, CustomTestStringConvertible {
        let name: String
        let text: String
        let range: NSRange
        let replacement: String
        let boundary: TextBoundary
        let expected: Result<String, TextEditError>

        init(
            _ name: String, _ text: String, _ location: Int, _ length: Int, _ replacement: String,
            _ expected: Result<String, TextEditError>, boundary: TextBoundary = .graphemeCluster
        ) {
            self.name = name
            self.text = text
            range = NSRange(location: location, length: length)
            self.replacement = replacement
            self.boundary = boundary
            self.expected = expected
        }

        var testDescription: String { name }
    }

    static let family = "👨‍👩‍👧‍👦"  // 4 emoji (2 units each) joined by 3 ZWJ: 11 UTF-16 units

    static let vectors: [Vector] = [
        Vector("insert at end", "Hello", 5, 0, " 👋", .success("Hello 👋")),
        Vector("insert in the middle", "Hllo", 1, 0, "e", .success("Hello")),
        Vector("replace a selection", "Hello world", 6, 5, "there", .success("Hello there")),
        Vector("delete in the middle", "Hello", 1, 3, "", .success("Ho")),
        Vector("insert into empty", "", 0, 0, "x", .success("x")),
        Vector("delete a whole emoji", "a👍b", 1, 2, "", .success("ab")),
        Vector("half an emoji", "a👍b", 1, 1, "", .failure(.splitsSurrogatePair(utf16Offset: 2))),
        Vector("caret inside an emoji", "a👍b", 2, 0, "x", .failure(.splitsSurrogatePair(utf16Offset: 2))),
        Vector("between two flags", "🇫🇷🇩🇪", 4, 0, "x", .success("🇫🇷x🇩🇪")),
        Vector("inside a flag", "🇫🇷🇩🇪", 2, 0, "x", .failure(.splitsGraphemeCluster(utf16Offset: 2))),
        Vector("delete a flag", "🇫🇷🇩🇪", 4, 4, "", .success("🇫🇷")),
        Vector("delete a family", family, 0, 11, "", .success("")),
        Vector("part of a family", family, 0, 8, "", .failure(.splitsGraphemeCluster(utf16Offset: 8))),
        Vector("after a family", "\(family)!", 11, 0, "?", .success("\(family)?!")),
        Vector("skin tone modifier", "👍🏽", 2, 0, "x", .failure(.splitsGraphemeCluster(utf16Offset: 2))),
        Vector("keycap", "1️⃣", 1, 2, "", .failure(.splitsGraphemeCluster(utf16Offset: 1))),
        Vector("CJK", "日本語", 1, 1, "米", .success("日米語")),
        Vector("CJK supplementary plane", "𠮷野家", 0, 2, "吉", .success("吉野家")),
        Vector("Hebrew", "שלום", 0, 4, "עולם", .success("עולם")),
        Vector("Arabic with a vowel mark", "مَرحبا", 1, 0, "x", .failure(.splitsGraphemeCluster(utf16Offset: 1))),
        Vector("combining accent", "e\u{301}", 1, 1, "", .failure(.splitsGraphemeCluster(utf16Offset: 1))),
        Vector("combining accent by scalar", "e\u{301}", 1, 1, "", .success("e"), boundary: .unicodeScalar),
        Vector("Devanagari vowel sign", "कि", 1, 1, "", .failure(.splitsGraphemeCluster(utf16Offset: 1))),
        Vector("Devanagari vowel sign by scalar", "कि", 1, 1, "", .success("क"), boundary: .unicodeScalar),
        Vector("surrogate pair by scalar", "👍", 1, 0, "x", .failure(.splitsSurrogatePair(utf16Offset: 1)), boundary: .unicodeScalar),
        Vector("inside CR LF", "a\r\nb", 2, 0, "x", .failure(.splitsGraphemeCluster(utf16Offset: 2))),
        Vector("past the end", "abc", 2, 2, "", .failure(.outOfBounds(location: 2, length: 2, utf16Length: 3))),
        Vector("caret past the end", "abc", 4, 0, "x", .failure(.outOfBounds(location: 4, length: 0, utf16Length: 3))),
        Vector("length that overflows", "abc", 1, Int.max, "", .failure(.outOfBounds(location: 1, length: Int.max, utf16Length: 3))),
        Vector("NSNotFound", "abc", NSNotFound, 0, "x", .failure(.invalidRange(location: NSNotFound, length: 0))),
        Vector("negative location", "abc", -1, 1, "x", .failure(.invalidRange(location: -1, length: 1))),
        Vector("negative length", "abc", 1, -1, "x", .failure(.invalidRange(location: 1, length: -1))),
    ]

    @Test(arguments: vectors)
    func apply(_ vector: Vector) {
        let edit = TextEdit(range: vector.range, replacement: vector.replacement)
        let result = Result { () throws(TextEditError) -> String in
            try edit.apply(to: vector.text, boundary: vector.boundary)
        }
        #expect(result == vector.expected)
    }

    @Test(arguments: vectors.filter { (try? $0.expected.get()) != nil })
    func inverseRestoresTheOriginal(_ vector: Vector) throws {
        let edit = TextEdit(range: vector.range, replacement: vector.replacement)
        let edited = try edit.apply(to: vector.text, boundary: vector.boundary)
        let undo = try edit.inverse(on: vector.text, boundary: vector.boundary)
        #expect(try undo.apply(to: edited, boundary: vector.boundary) == vector.text)
    }

    @Test
    func errorsSayWhy() {
        #expect(TextEditError.splitsSurrogatePair(utf16Offset: 2).description.contains("surrogate pair"))
        #expect(TextEditError.splitsGraphemeCluster(utf16Offset: 1).description.contains("inside a character"))
        #expect(TextEditError.outOfBounds(location: 4, length: 0, utf16Length: 3).description.contains("3 UTF-16"))
    }

    struct CaretVector: Sendable, CustomTestStringConvertible {
        let name: String
        let edit: TextEdit
        let text: String
        let expected: TextEdit.Result
        var testDescription: String { name }
    }

    static let caretVectors: [CaretVector] = [
        CaretVector(name: "typing", edit: .insertion("x", at: 1), text: "ab", expected: .init(text: "axb", caretLocation: 2)),
        CaretVector(name: "emoji", edit: .insertion("👋", at: 0), text: "ab", expected: .init(text: "👋ab", caretLocation: 2)),
        CaretVector(name: "deletion", edit: .deletion(of: NSRange(location: 1, length: 2)), text: "a👍b", expected: .init(text: "ab", caretLocation: 1)),
        CaretVector(
            name: "combining mark joins the previous letter",
            edit: .insertion("\u{301}", at: 1), text: "ex", expected: .init(text: "e\u{301}x", caretLocation: 2)
        ),
        // "🇫" before "🇷🇺" pairs with "🇷" into 🇫🇷: the caret moves past the whole flag.
        CaretVector(
            name: "regional indicator merges forward",
            edit: .insertion("🇫", at: 0), text: "🇷🇺", expected: .init(text: "🇫🇷🇺", caretLocation: 4)
        ),
    ]

    @Test(arguments: caretVectors)
    func caretAfterEdit(_ vector: CaretVector) throws {
        #expect(try vector.edit.applyWithCaret(to: vector.text) == vector.expected)
    }

    struct DifferenceVector: Sendable, CustomTestStringConvertible {
        let old: String
        let new: String
        let range: NSRange
        let replacement: String
        var testDescription: String { "\(old) → \(new)" }
        init(_ old: String, _ new: String, _ location: Int, _ length: Int, _ replacement: String) {
            self.old = old
            self.new = new
            range = NSRange(location: location, length: length)
            self.replacement = replacement
        }
    }

    static let differenceVectors: [DifferenceVector] = [
        DifferenceVector("12", "1٣2", 1, 0, "٣"),
        DifferenceVector("abc", "abc", 3, 0, ""),
        DifferenceVector("aaa", "aa", 2, 1, ""),
        DifferenceVector("", "かな", 0, 0, "かな"),
        DifferenceVector("e", "e\u{301}", 0, 1, "e\u{301}"),
        DifferenceVector("a👍b", "a👍🏽b", 1, 2, "👍🏽"),
        DifferenceVector("x\(family)y", "xy", 1, 11, ""),
        DifferenceVector("日本", "日本語", 2, 0, "語"),
        DifferenceVector("é", "e\u{301}", 0, 1, "e\u{301}"),
        DifferenceVector("🇫🇷", "🇫🇮", 0, 4, "🇫🇮"),
        DifferenceVector("ab", "a\u{301}b", 0, 1, "a\u{301}"),
        DifferenceVector("xx", "xxx", 2, 0, "x"),
    ]

    @Test(arguments: differenceVectors)
    func differenceBetweenTexts(_ vector: DifferenceVector) throws {
        let edit = TextEdit(from: vector.old, to: vector.new)
        #expect(edit.range == vector.range)
        #expect(edit.replacement == vector.replacement)
        #expect(try edit.apply(to: vector.old) == vector.new)
    }
}
