import Foundation
import Testing

/// An edit written the way a person reads it: the text with its caret (`|`) or selection
/// (`[...]`) marked, what is typed or pasted there, and the text the format should answer
/// (`nil` for a refusal).
struct EditVector: Sendable, CustomTestStringConvertible {
    let text: String
    let range: NSRange
    let replacement: String
    let expected: String?
    let marked: String

    /// - Parameters:
    ///   - marked: The text with `|` at the caret or `[` `]` around the selection.
    ///   - replacement: What replaces the caret or selection.
    ///   - expected: The answer; `nil` for refused.
    init(_ marked: String, _ replacement: String, _ expected: String?) {
        self.marked = marked
        self.replacement = replacement
        self.expected = expected
        var text = ""
        var start = 0
        var end = 0
        var offset = 0
        for character in marked {
            switch character {
            case "|":
                start = offset
                end = offset
            case "[":
                start = offset
            case "]":
                end = offset
            default:
                text.append(character)
                offset += character.utf16.count
            }
        }
        self.text = text
        range = NSRange(location: start, length: end - start)
    }

    var testDescription: String {
        "\"\(marked)\" ← \"\(replacement.debugDescription.dropFirst().dropLast())\" ⇒ \(expected.map { "\"\($0)\"" } ?? "refused")"
    }
}
