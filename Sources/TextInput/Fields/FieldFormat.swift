import Foundation

/// What a text field accepts while it is edited, what value its text stands for, and how a
/// value reads when it is not being edited.
///
/// A format decides one edit at a time: given the field's text and a replacement of a range
/// of it (a keystroke, a deletion, a paste), it answers the text the field should show next,
/// or `nil` to refuse the edit. The answer may differ from a plain replacement: a paste is
/// filtered to what can belong ("1,234" becomes "1234" in an integer field).
///
/// Partial texts are accepted while typing ("-", "1.", ""): they stand for no value yet, so
/// ``value(from:)`` answers `nil` for them and the bound property keeps its value until the
/// text parses.
///
/// ```swift
/// let format = IntegerFormat(range: 1...600)
/// format.applying("5", in: NSRange(location: 1, length: 0), to: "4")  // "45"
/// format.applying("x", in: NSRange(location: 1, length: 0), to: "4")  // nil
/// format.value(from: "45")                                            // 45
/// format.text(for: 45)                                                // "45"
/// ```
public protocol FieldFormat: Sendable {
    /// The kind of value the field's text stands for.
    associatedtype Value: Equatable & Sendable

    /// The field's text after `replacement` replaces `range` of `text`; nil when refused.
    ///
    /// - Parameters:
    ///   - replacement: The typed, pasted or autofilled text; empty for a deletion.
    ///   - range: The replaced range of `text`, in UTF-16 code units.
    ///   - text: The field's text before the edit.
    /// - Returns: The text the field should show, or `nil` when the edit is refused.
    func applying(_ replacement: String, in range: NSRange, to text: String) -> String?

    /// The value `text` stands for; nil when empty or only partial ("-", "1.").
    ///
    /// - Parameter text: A text this format accepted, or one set in code.
    /// - Returns: The value, or `nil` when the text does not (yet) stand for one.
    func value(from text: String) -> Value?

    /// How `value` reads when the field is not being edited.
    ///
    /// - Parameter value: A value of the bound property.
    /// - Returns: The text to show; ``value(from:)`` reads it back as the same value.
    func text(for value: Value) -> String

    /// Why `text` cannot be submitted yet, for the form to show under the field; `nil` when it
    /// can. Several reasons go on lines of their own.
    ///
    /// - Parameter text: A text this format accepted.
    /// - Returns: The reason, or `nil`. By default every text can be submitted.
    func problem(with text: String) -> String?
}

extension FieldFormat {
    public func problem(with text: String) -> String? { nil }
}
