import Foundation

extension String {
    /// The string indices that a range of UTF-16 code units covers, checked against a boundary.
    ///
    /// This is the checked counterpart of `Range(_:in:)`: instead of answering `nil`, it says
    /// why the range cannot be used, and it also refuses a range that would cut a character
    /// in two (or, with ``TextBoundary/unicodeScalar``, a surrogate pair).
    ///
    /// ```swift
    /// let text = "a👍b"
    /// let thumb = try text.indexRange(of: NSRange(location: 1, length: 2))  // "👍"
    /// try text.indexRange(of: NSRange(location: 1, length: 1))  // throws .splitsSurrogatePair
    /// ```
    ///
    /// Finding an index by UTF-16 offset does not rescan the string for each call: native
    /// strings keep a cache of UTF-16 positions, and bridged strings are UTF-16 already.
    ///
    /// - Parameters:
    ///   - range: A range of UTF-16 code units, as UIKit and AppKit deliver them.
    ///   - boundary: The unit the range must not cut through.
    /// - Returns: The range of string indices, usable with `replaceSubrange(_:with:)`.
    /// - Throws: ``TextEditError`` when the range is invalid, out of bounds or cuts through
    ///   a surrogate pair or (for ``TextBoundary/graphemeCluster``) a character.
    public func indexRange(
        of range: NSRange,
        boundary: TextBoundary = .graphemeCluster
    ) throws(TextEditError) -> Range<String.Index> {
        try checkBounds(of: range)
        let lower = try checkedIndex(atUTF16Offset: range.location, boundary: boundary)
        guard range.length > 0 else { return lower..<lower }
        let upper = try checkedIndex(atUTF16Offset: range.location + range.length, boundary: boundary)
        return lower..<upper
    }

    /// The range of UTF-16 code units that a range of string indices covers.
    ///
    /// The inverse of ``indexRange(of:boundary:)``; use it to hand a range found with
    /// `String` APIs (a search result, a character) to UIKit, AppKit or a ``TextEdit``.
    ///
    /// - Parameter range: A range of valid indices of this string.
    /// - Returns: The same range, counted in UTF-16 code units.
    public func utf16Range(of range: Range<String.Index>) -> NSRange {
        let location = utf16.distance(from: utf16.startIndex, to: range.lowerBound)
        let length = utf16.distance(from: range.lowerBound, to: range.upperBound)
        return NSRange(location: location, length: length)
    }

    /// Whether an edit may start or end at a UTF-16 offset.
    ///
    /// Offsets outside the text are never boundaries.
    ///
    /// - Parameters:
    ///   - utf16Offset: An offset in UTF-16 code units from the start of the text.
    ///   - boundary: The unit an edit must not cut through.
    public func isBoundary(atUTF16Offset utf16Offset: Int, _ boundary: TextBoundary = .graphemeCluster) -> Bool {
        guard utf16Offset >= 0, utf16Offset <= utf16.count else { return false }
        return (try? checkedIndex(atUTF16Offset: utf16Offset, boundary: boundary)) != nil
    }

    /// The smallest range of whole characters that contains a UTF-16 range.
    ///
    /// Use it to widen a selection or a deletion that came from a layer unaware of
    /// characters, so that it removes whole emoji and whole accented letters. A bound
    /// between the halves of a surrogate pair is widened too.
    ///
    /// ```swift
    /// "e\u{301}x".rangeExpandedToCharacters(NSRange(location: 0, length: 1))  // {0, 2}
    /// ```
    ///
    /// - Parameter range: A range of UTF-16 code units within the text.
    /// - Returns: The range widened outward to character boundaries; unchanged when already
    ///   aligned. An empty range inside a character moves to the character's start.
    /// - Throws: ``TextEditError/invalidRange(location:length:)`` or
    ///   ``TextEditError/outOfBounds(location:length:utf16Length:)``.
    public func rangeExpandedToCharacters(_ range: NSRange) throws(TextEditError) -> NSRange {
        try checkBounds(of: range)
        let lower = characterStart(containing: scalarIndex(atUTF16Offset: range.location, roundingUp: false))
        guard range.length > 0 else { return utf16Range(of: lower..<lower) }
        let upperOffset = range.location + range.length
        let upper = characterEnd(containing: scalarIndex(atUTF16Offset: upperOffset, roundingUp: true))
        return utf16Range(of: lower..<upper)
    }

    /// The nearest character boundary at or before a UTF-16 offset.
    ///
    /// Use it to place a caret that a UTF-16 computation left inside a character.
    ///
    /// - Parameter utf16Offset: An offset in UTF-16 code units, `0...utf16.count`.
    /// - Returns: The offset of the start of the character containing `utf16Offset`, or
    ///   `utf16Offset` itself when it already is a boundary.
    /// - Throws: ``TextEditError`` for an offset outside the text.
    public func characterBoundary(atOrBefore utf16Offset: Int) throws(TextEditError) -> Int {
        try checkBounds(of: NSRange(location: utf16Offset, length: 0))
        let start = characterStart(containing: scalarIndex(atUTF16Offset: utf16Offset, roundingUp: false))
        return utf16.distance(from: utf16.startIndex, to: start)
    }

    /// The nearest character boundary at or after a UTF-16 offset.
    ///
    /// Use it for a caret after an insertion that merged with the following text, such as a
    /// regional indicator typed before another one.
    ///
    /// - Parameter utf16Offset: An offset in UTF-16 code units, `0...utf16.count`.
    /// - Returns: The offset of the end of the character containing `utf16Offset`, or
    ///   `utf16Offset` itself when it already is a boundary.
    /// - Throws: ``TextEditError`` for an offset outside the text.
    public func characterBoundary(atOrAfter utf16Offset: Int) throws(TextEditError) -> Int {
        try checkBounds(of: NSRange(location: utf16Offset, length: 0))
        let end = characterEnd(containing: scalarIndex(atUTF16Offset: utf16Offset, roundingUp: true))
        return utf16.distance(from: utf16.startIndex, to: end)
    }

    /// The range of the character just before a caret: what backspace deletes.
    ///
    /// - Parameter utf16Offset: The caret, a character boundary.
    /// - Returns: The character's UTF-16 range, or `nil` at the start of the text or when the
    ///   offset is not a character boundary inside the text.
    public func rangeOfCharacter(endingAt utf16Offset: Int) -> NSRange? {
        guard utf16Offset > 0,
              let end = try? indexRange(of: NSRange(location: utf16Offset, length: 0)).lowerBound
        else { return nil }
        return utf16Range(of: index(before: end)..<end)
    }

    /// The range of the character just after a caret: what forward delete removes.
    ///
    /// - Parameter utf16Offset: The caret, a character boundary.
    /// - Returns: The character's UTF-16 range, or `nil` at the end of the text or when the
    ///   offset is not a character boundary inside the text.
    public func rangeOfCharacter(startingAt utf16Offset: Int) -> NSRange? {
        guard let start = try? indexRange(of: NSRange(location: utf16Offset, length: 0)).lowerBound,
              start < endIndex
        else { return nil }
        return utf16Range(of: start..<index(after: start))
    }

    /// Refuses a range that is not one, or that reaches outside the text.
    private func checkBounds(of range: NSRange) throws(TextEditError) {
        guard range.location != NSNotFound, range.location >= 0, range.length >= 0 else {
            throw .invalidRange(location: range.location, length: range.length)
        }
        let length = utf16.count
        // Compared by subtraction so that a huge length cannot overflow `location + length`.
        guard range.location <= length, range.length <= length - range.location else {
            throw .outOfBounds(location: range.location, length: range.length, utf16Length: length)
        }
    }

    /// The index at an in-bounds UTF-16 offset, refused when it cuts through `boundary`.
    private func checkedIndex(atUTF16Offset offset: Int, boundary: TextBoundary) throws(TextEditError) -> String.Index {
        let index = utf16.index(utf16.startIndex, offsetBy: offset)
        guard index.samePosition(in: unicodeScalars) != nil else {
            throw .splitsSurrogatePair(utf16Offset: offset)
        }
        // `samePosition(in:)` looks only at the neighbouring scalars of one cluster, so the
        // check costs the length of a character, not of the text.
        if boundary == .graphemeCluster, index.samePosition(in: self) == nil {
            throw .splitsGraphemeCluster(utf16Offset: offset)
        }
        return index
    }

    /// The index at an in-bounds UTF-16 offset, moved off the middle of a surrogate pair.
    private func scalarIndex(atUTF16Offset offset: Int, roundingUp: Bool) -> String.Index {
        let index = utf16.index(utf16.startIndex, offsetBy: offset)
        guard index.samePosition(in: unicodeScalars) == nil else { return index }
        return roundingUp ? utf16.index(after: index) : utf16.index(before: index)
    }

    /// The start of the character that contains a scalar-aligned index.
    private func characterStart(containing index: String.Index) -> String.Index {
        if index.samePosition(in: self) != nil { return index }
        // `index(after:)` first rounds down to the character start, then steps one character.
        return self.index(before: self.index(after: index))
    }

    /// The end of the character that contains a scalar-aligned index.
    private func characterEnd(containing index: String.Index) -> String.Index {
        if index.samePosition(in: self) != nil { return index }
        return self.index(after: index)
    }
}
