import Foundation

extension TextEdit {
    /// The smallest edit, on character boundaries, that turns one text into another.
    ///
    /// Some changes reach a field without a range: an input method committing its composed
    /// text, dictation, autocorrection, a terminal that redraws a line. Comparing the text
    /// before and after recovers the edit, so that it can be validated like a keystroke in its
    /// context instead of re-reading the whole text as if it had been pasted.
    ///
    /// The common prefix and suffix are compared by characters, so the range never cuts
    /// through one in `old`, and the suffix is not allowed to overlap the prefix.
    ///
    /// ```swift
    /// TextEdit(from: "12", to: "1٣2")  // range {1, 0}, replacement "٣"
    /// ```
    ///
    /// - Parameters:
    ///   - old: The text before the change.
    ///   - new: The text after the change.
    public init(from old: String, to new: String) {
        var oldStart = old.startIndex
        var newStart = new.startIndex
        while oldStart < old.endIndex, newStart < new.endIndex, old[oldStart] == new[newStart] {
            oldStart = old.index(after: oldStart)
            newStart = new.index(after: newStart)
        }
        var oldEnd = old.endIndex
        var newEnd = new.endIndex
        while oldEnd > oldStart, newEnd > newStart {
            let oldPrevious = old.index(before: oldEnd)
            let newPrevious = new.index(before: newEnd)
            guard old[oldPrevious] == new[newPrevious] else { break }
            oldEnd = oldPrevious
            newEnd = newPrevious
        }
        self.init(range: old.utf16Range(of: oldStart..<oldEnd), replacement: String(new[newStart..<newEnd]))
    }
}
