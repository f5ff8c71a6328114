import Foundation

/// A field for free text, optionally limited in length.
///
/// Length is counted in characters as a person sees them: a family emoji or a flag counts
/// as one, however many UTF-16 code units it takes.
///
/// Control characters (Unicode category Cc: escape, NUL, backspace, DEL, the C1 controls) are
/// refused, typed or pasted: a paste that carries them is terminal output or binary data, and
/// dropping only the control characters would leave the rest of an escape sequence ("[31m")
/// in the text. Line breaks and tabs go in only where the field allows them: a multi-line
/// field takes them as they come; a one-line field refuses them typed and turns them into one
/// space in a paste ("John\nSmith" gives "John Smith").
///
/// A paste longer than the room left is cut at a character boundary, as an HTML `maxlength`
/// does. A typed character that does not fit is refused.
///
/// With a limit, a keystroke costs what it changes, not the length of the text: the format
/// remembers the character counts of the last texts it was given and answered, and counts only
/// the characters around an edit (a combining mark or a flag's second half changes the
/// character before it, so those are counted too). The first long text a format sees is
/// counted once.
///
/// ```swift
/// let format = TextFormat(maxLength: 5)
/// format.applying("👨‍👩‍👧‍👦", in: NSRange(location: 4, length: 0), to: "abcd")  // "abcd👨‍👩‍👧‍👦"
/// format.applying("xyz", in: NSRange(location: 3, length: 0), to: "abc")     // "abcxy"
/// format.applying("\u{1B}[31m", in: NSRange(location: 0, length: 0), to: "") // nil
/// TextFormat(isMultiline: true).applying("\n", in: NSRange(location: 3, length: 0), to: "abc")  // "abc\n"
/// ```
public struct TextFormat: FieldFormat {
    /// The most characters the field holds; `nil` for no limit.
    public let maxLength: Int?

    /// The unit an edit's range must not cut through.
    public let boundary: TextBoundary

    /// Whether the field takes line breaks and tabs (a text view) or is one line (a text field).
    public let isMultiline: Bool

    /// The counts of the texts this format last saw, shared by its copies.
    private let characterCounts = CharacterCountMemo()

    /// Creates a text format.
    ///
    /// - Parameters:
    ///   - maxLength: The most characters (grapheme clusters) the field holds; `nil` for no limit.
    ///   - boundary: The unit an edit's range must not cut through. Characters by default;
    ///     ``TextBoundary/unicodeScalar`` lets a keyboard that deletes one vowel sign of a
    ///     Devanagari or Thai syllable do so.
    ///   - isMultiline: Whether the field takes line breaks and tabs; a one-line field by default.
    public init(maxLength: Int? = nil, boundary: TextBoundary = .graphemeCluster, isMultiline: Bool = false) {
        self.maxLength = maxLength.map { max($0, 0) }
        self.boundary = boundary
        self.isMultiline = isMultiline
    }

    /// The field's text after an edit, or `nil` when the edit is refused.
    ///
    /// - Parameters:
    ///   - replacement: The typed or pasted text; empty for a deletion.
    ///   - range: The replaced range of `text`, in UTF-16 code units.
    ///   - text: The field's text before the edit.
    /// - Returns: The new text, with a paste filtered and cut to fit; `nil` when the edit is
    ///   refused (a control character, a line break typed into a one-line field, no room).
    public func applying(_ replacement: String, in range: NSRange, to text: String) -> String? {
        guard let bounds = try? text.indexRange(of: range, boundary: boundary) else { return nil }
        var candidate = text
        guard !replacement.isEmpty else {
            candidate.removeSubrange(bounds)
            if maxLength != nil, let count = characterCounts.count(of: text) {
                let remaining = text.characterCount(replacing: bounds, with: "", knownCount: count)
                characterCounts.remember(candidate, count: remaining)
            }
            return candidate
        }
        guard !replacement.unicodeScalars.contains(where: Self.isRefusedControl) else { return nil }
        let isSingleCharacter = replacement.index(after: replacement.startIndex) == replacement.endIndex
        let insertion: String
        if isMultiline {
            insertion = replacement
        } else if isSingleCharacter {
            guard !replacement.unicodeScalars.contains(where: Self.isLineBreakOrTab) else { return nil }
            insertion = replacement
        } else {
            insertion = Self.oneLine(replacement)
            guard !insertion.isEmpty else { return nil }
        }
        candidate.replaceSubrange(bounds, with: insertion)
        guard let maxLength else { return candidate }
        let known = characterCounts.count(of: text)
        // A character takes at least one UTF-8 byte and one UTF-16 unit, and both are cheaper
        // to count than characters: a text well under its limit needs no count.
        if known == nil, candidate.utf8.count <= maxLength || candidate.utf16Length <= maxLength {
            return candidate
        }
        let count = known ?? text.count
        if known == nil { characterCounts.remember(text, count: count) }
        let newCount = text.characterCount(replacing: bounds, with: insertion[...], knownCount: count)
        if newCount <= maxLength {
            characterCounts.remember(candidate, count: newCount)
            return candidate
        }
        guard !isSingleCharacter else { return nil }
        return truncatedPaste(insertion, in: bounds, of: text, counting: count, maxLength: maxLength)
    }

    /// The text itself; `nil` when it is empty.
    ///
    /// - Parameter text: A field's text.
    public func value(from text: String) -> String? {
        text.isEmpty ? nil : text
    }

    /// The value itself.
    ///
    /// - Parameter value: The bound property's value.
    public func text(for value: String) -> String {
        value
    }

    /// The text with as much of a paste as fits, cut at a character boundary; `nil` when
    /// nothing of it fits.
    ///
    /// - Parameter count: The characters of `text`.
    private func truncatedPaste(_ insertion: String, in bounds: Range<String.Index>, of text: String,
                                counting count: Int, maxLength: Int) -> String? {
        let kept = text.characterCount(keptAround: bounds, knownCount: count)
        var room = min(maxLength - kept, insertion.count)
        while room > 0 {
            // Characters can merge across the edges of the insertion (a combining mark, a
            // regional indicator), so the count is checked on the whole result.
            let pasted = insertion.prefix(room)
            let newCount = text.characterCount(replacing: bounds, with: pasted, knownCount: count)
            if newCount <= maxLength {
                var candidate = text
                candidate.replaceSubrange(bounds, with: pasted)
                characterCounts.remember(candidate, count: newCount)
                return candidate
            }
            room -= 1
        }
        return nil
    }

    /// A paste for a one-line field: each run of line breaks and tabs becomes one space, and
    /// none is left at either end.
    private static func oneLine(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            if isLineBreakOrTab(scalar) {
                pendingSpace = !result.isEmpty
            } else {
                if pendingSpace && scalar != " " && result.last != " " { result.append(" ") }
                pendingSpace = false
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// A control character that no field takes: every one but the line breaks and the tab.
    private static func isRefusedControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .control && !isLineBreakOrTab(scalar)
    }

    private static func isLineBreakOrTab(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "\n", "\r", "\t", "\u{0B}", "\u{0C}", "\u{2028}", "\u{2029}": true
        default: false
        }
    }
}
