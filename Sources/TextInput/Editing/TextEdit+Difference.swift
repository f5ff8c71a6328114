import Foundation

extension TextEdit {
    /// The smallest edit, on character boundaries, that turns one text into another.
    ///
    /// Some changes reach a field without a range: an input method committing its composed
    /// text, dictation, autocorrection, a terminal that redraws a line. Comparing the text
    /// before and after recovers the edit, so that it can be validated like a keystroke in its
    /// context instead of re-reading the whole text as if it had been pasted.
    ///
    /// The texts are compared exactly (code unit by code unit, not by Unicode equivalence,
    /// so a change from "é" to "e\u{301}" is an edit). The common prefix and suffix are then
    /// shortened to end on character boundaries of both texts, so the range never cuts
    /// through a character of `old` and the replacement never starts inside one of `new`.
    ///
    /// ```swift
    /// TextEdit(from: "12", to: "1٣2")  // range {1, 0}, replacement "٣"
    /// ```
    ///
    /// Native strings are compared eight bytes at a time, so the cost stays a few
    /// microseconds for a 10,000-character text.
    ///
    /// - Parameters:
    ///   - old: The text before the change.
    ///   - new: The text after the change.
    public init(from old: String, to new: String) {
        let common = old.utf8.withContiguousStorageIfAvailable { oldBytes in
            new.utf8.withContiguousStorageIfAvailable { newBytes in
                CommonBytes(oldBytes, newBytes)
            }
        }
        guard let common = common ?? nil else {
            self = Self.characterDifference(from: old, to: new)
            return
        }
        var prefix = common.prefix
        var suffix = common.suffix
        // Move the prefix's end back until it is a character boundary in both texts; the
        // bytes before it are shared, so each step only looks at one character.
        while true {
            let oldIndex = old.utf8.index(old.startIndex, offsetBy: prefix)
            let newIndex = new.utf8.index(new.startIndex, offsetBy: prefix)
            let start = min(
                old.utf8.distance(from: old.startIndex, to: Self.characterStart(containing: oldIndex, in: old)),
                new.utf8.distance(from: new.startIndex, to: Self.characterStart(containing: newIndex, in: new))
            )
            if start == prefix { break }
            prefix = start
        }
        // Likewise move the suffix's start forward.
        while true {
            let oldIndex = old.utf8.index(old.startIndex, offsetBy: old.utf8.count - suffix)
            let newIndex = new.utf8.index(new.startIndex, offsetBy: new.utf8.count - suffix)
            let shorter = min(
                old.utf8.distance(from: Self.characterEnd(containing: oldIndex, in: old), to: old.endIndex),
                new.utf8.distance(from: Self.characterEnd(containing: newIndex, in: new), to: new.endIndex)
            )
            if shorter == suffix { break }
            suffix = shorter
        }
        let oldStart = old.utf8.index(old.startIndex, offsetBy: prefix)
        let oldEnd = old.utf8.index(old.startIndex, offsetBy: old.utf8.count - suffix)
        let newStart = new.utf8.index(new.startIndex, offsetBy: prefix)
        let newEnd = new.utf8.index(new.startIndex, offsetBy: new.utf8.count - suffix)
        self.init(range: old.utf16Range(of: oldStart..<oldEnd), replacement: String(new[newStart..<newEnd]))
    }

    /// The difference found character by character, for strings without contiguous UTF-8.
    static func characterDifference(from old: String, to new: String) -> TextEdit {
        var oldStart = old.startIndex
        var newStart = new.startIndex
        while oldStart < old.endIndex, newStart < new.endIndex, old[oldStart].unicodeScalars.elementsEqual(new[newStart].unicodeScalars) {
            oldStart = old.index(after: oldStart)
            newStart = new.index(after: newStart)
        }
        var oldEnd = old.endIndex
        var newEnd = new.endIndex
        while oldEnd > oldStart, newEnd > newStart {
            let oldPrevious = old.index(before: oldEnd)
            let newPrevious = new.index(before: newEnd)
            guard old[oldPrevious].unicodeScalars.elementsEqual(new[newPrevious].unicodeScalars) else { break }
            oldEnd = oldPrevious
            newEnd = newPrevious
        }
        return TextEdit(range: old.utf16Range(of: oldStart..<oldEnd), replacement: String(new[newStart..<newEnd]))
    }

    /// The start of the character that contains a scalar-aligned index.
    private static func characterStart(containing index: String.Index, in text: String) -> String.Index {
        if index.samePosition(in: text) != nil { return index }
        return text.index(before: text.index(after: index))
    }

    /// The end of the character that contains a scalar-aligned index.
    private static func characterEnd(containing index: String.Index, in text: String) -> String.Index {
        if index.samePosition(in: text) != nil { return index }
        return text.index(after: index)
    }
}
