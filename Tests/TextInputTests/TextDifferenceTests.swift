import Foundation
import Testing
@testable import TextInput

/// The difference between two texts, found on bytes, always turns one into the other and
/// ends on character boundaries of both; the character-by-character fallback agrees.
struct TextDifferenceTests {
    static let texts = [
        "", "a", "ab", "abc", "é", "e\u{301}", "🇫🇷", "🇫🇮", "🇫🇷🇩🇪", "👍", "👍🏽", "👨‍👩‍👧‍👦", "👨‍👩‍👧",
        "日本語", "日本", "שלום", "a\r\nb", "a\rb", String(repeating: "Grüße 日本語 ", count: 4),
        String(repeating: "Grüße 日本語 ", count: 4) + "👍",
    ]

    @Test(arguments: texts)
    func differenceTurnsOldIntoNew(_ old: String) throws {
        for new in Self.texts {
            let edit = TextEdit(from: old, to: new)
            let applied = try edit.apply(to: old)
            #expect(applied.utf8.elementsEqual(new.utf8), "\(old) → \(new)")
            let end = edit.range.location + edit.replacement.utf16.count
            #expect(new.isBoundary(atUTF16Offset: edit.range.location) && new.isBoundary(atUTF16Offset: end), "\(old) → \(new)")
            let fallback = TextEdit.characterDifference(from: old, to: new)
            #expect(try fallback.apply(to: old).utf8.elementsEqual(new.utf8), "fallback \(old) → \(new)")
            #expect(edit.replacement.utf16.count <= fallback.replacement.utf16.count, "bytes find no larger edit")
        }
    }
}
