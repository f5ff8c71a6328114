import Foundation

/// A field for a name that must not be empty: one line of free text (``TextFormat``: control
/// characters refused, a pasted line break becomes a space), optionally limited in length, whose
/// value is the text without the spaces around it.
///
/// ```swift
/// let format = NameFormat(missing: "Give the script a name.")
/// format.problem(with: "  ")      // "Give the script a name."
/// format.value(from: " Prices ")  // "Prices"
/// ```
public struct NameFormat: FieldFormat {
    /// What the form says while the field is empty or only spaces.
    public let missing: String
    private let text: TextFormat

    /// - Parameters:
    ///   - missing: What the form says while the field is empty or only spaces.
    ///   - maxLength: The most characters the field holds; `nil` for no limit.
    public init(missing: String, maxLength: Int? = nil) {
        self.missing = missing
        text = TextFormat(maxLength: maxLength)
    }

    public func applying(_ replacement: String, in range: NSRange, to text: String) -> String? {
        self.text.applying(replacement, in: range, to: text)
    }

    public func value(from text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty ? nil : trimmed
    }

    public func text(for value: String) -> String {
        value
    }

    public func problem(with text: String) -> String? {
        value(from: text) == nil ? missing : nil
    }
}
