import Foundation

/// A replacement of a range of UTF-16 code units: the unit of change of every text field.
///
/// Typing, deleting, pasting and autofill are all the same thing: a `replacement` string
/// takes the place of `range`. A deletion has an empty replacement; an insertion has an empty
/// range. The range can be anywhere (the caret is not always at the end) and can cover a
/// selection.
///
/// Applying an edit validates it completely first: a range that is out of bounds, or that
/// would cut a surrogate pair or a character in two, throws a ``TextEditError`` and changes
/// nothing.
///
/// ```swift
/// let edit = TextEdit(range: NSRange(location: 5, length: 0), replacement: " 👋")
/// let text = try edit.apply(to: "Hello")   // "Hello 👋"
/// edit.caretLocation                       // 8: after the inserted text
/// ```
public struct TextEdit: Hashable, Sendable {
    /// The replaced range, in UTF-16 code units of the text before the edit.
    public var range: NSRange

    /// The text that takes the range's place; empty for a deletion.
    public var replacement: String

    /// Creates an edit that replaces `range` with `replacement`.
    ///
    /// - Parameters:
    ///   - range: A range of UTF-16 code units of the text the edit will apply to.
    ///   - replacement: The new text for that range; empty to delete it.
    public init(range: NSRange, replacement: String) {
        self.range = range
        self.replacement = replacement
    }

    /// An edit that inserts text at a caret.
    ///
    /// - Parameters:
    ///   - text: The text to insert.
    ///   - utf16Offset: The caret, in UTF-16 code units.
    public static func insertion(_ text: String, at utf16Offset: Int) -> TextEdit {
        TextEdit(range: NSRange(location: utf16Offset, length: 0), replacement: text)
    }

    /// An edit that deletes a range.
    ///
    /// - Parameter range: The UTF-16 range to remove.
    public static func deletion(of range: NSRange) -> TextEdit {
        TextEdit(range: range, replacement: "")
    }

    /// Where the caret goes after the edit, in UTF-16 code units: just after the replacement.
    ///
    /// When the replacement merges with the text after it into one character (a combining
    /// mark, a regional indicator), this offset can fall inside that character; the caret in
    /// ``Result/caretLocation`` returned by ``applyWithCaret(to:boundary:)`` is moved past it.
    public var caretLocation: Int {
        range.location + replacement.utf16.count
    }

    /// The text after the edit.
    ///
    /// - Parameters:
    ///   - text: The text before the edit.
    ///   - boundary: The unit the range must not cut through; characters by default.
    /// - Returns: `text` with ``range`` replaced by ``replacement``.
    /// - Throws: ``TextEditError`` when the range cannot be used on `text`; nothing is applied.
    public func apply(to text: String, boundary: TextBoundary = .graphemeCluster) throws(TextEditError) -> String {
        let bounds = try text.indexRange(of: range, boundary: boundary)
        var result = text
        result.replaceSubrange(bounds, with: replacement)
        return result
    }

    /// The text after the edit and the caret position in it.
    ///
    /// - Parameters:
    ///   - text: The text before the edit.
    ///   - boundary: The unit the range must not cut through; characters by default.
    /// - Returns: The new text and a caret on a character boundary just after the replacement.
    /// - Throws: ``TextEditError`` when the range cannot be used on `text`; nothing is applied.
    public func applyWithCaret(to text: String, boundary: TextBoundary = .graphemeCluster) throws(TextEditError) -> Result {
        let result = try apply(to: text, boundary: boundary)
        let caret = (try? result.characterBoundary(atOrAfter: caretLocation)) ?? caretLocation
        return Result(text: result, caretLocation: caret)
    }

    /// The edit that undoes this one once it has been applied to `text`.
    ///
    /// Keep it on an undo stack: applying it to the edited text restores `text` exactly.
    ///
    /// - Parameters:
    ///   - text: The text before this edit.
    ///   - boundary: The unit the range must not cut through; characters by default.
    /// - Returns: An edit replacing the inserted text with what this edit removed.
    /// - Throws: ``TextEditError`` when this edit cannot be applied to `text`.
    public func inverse(on text: String, boundary: TextBoundary = .graphemeCluster) throws(TextEditError) -> TextEdit {
        let bounds = try text.indexRange(of: range, boundary: boundary)
        return TextEdit(
            range: NSRange(location: range.location, length: replacement.utf16.count),
            replacement: String(text[bounds])
        )
    }
}

extension TextEdit {
    /// A text after an edit, with the caret that the edit leaves behind.
    ///
    /// An editor shows `text` and puts its insertion point at `caretLocation`; both count
    /// UTF-16 code units, like the edit's range.
    public struct Result: Hashable, Sendable {
        /// The whole text after the edit.
        public var text: String

        /// The caret after the edit, on a character boundary of ``text``, in UTF-16 code units.
        public var caretLocation: Int

        /// Creates a result from a text and a caret in it.
        ///
        /// - Parameters:
        ///   - text: The whole text after the edit.
        ///   - caretLocation: The caret, in UTF-16 code units of `text`.
        public init(text: String, caretLocation: Int) {
            self.text = text
            self.caretLocation = caretLocation
        }
    }
}
