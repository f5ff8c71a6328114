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
    /// Finding the index costs a count of UTF-16 units up to the range, eight bytes at a
    /// time, without building the standard library's table of UTF-16 positions for the whole
    /// string (which an editor would rebuild on every keystroke); bridged strings are UTF-16
    /// already and need no count.
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
        try checkShape(of: range)
        let lower = try checkedIndex(atUTF16Offset: range.location, of: range, boundary: boundary)
        guard range.length > 0 else { return lower..<lower }
        let (upperOffset, overflow) = range.location.addingReportingOverflow(range.length)
        guard !overflow else { throw outOfBounds(range) }
        let upper = try checkedIndex(atUTF16Offset: upperOffset, of: range, boundary: boundary, from: (lower, range.location))
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
        guard range.lowerBound.samePosition(in: unicodeScalars) != nil,
              range.upperBound.samePosition(in: unicodeScalars) != nil
        else {
            // An index between the halves of a surrogate pair: only the UTF-16 view knows it.
            let location = utf16.distance(from: utf16.startIndex, to: range.lowerBound)
            return NSRange(location: location, length: utf16.distance(from: range.lowerBound, to: range.upperBound))
        }
        let location = utf16Offset(of: range.lowerBound)
        let end = utf16Offset(of: range.upperBound, from: (range.lowerBound, location))
        return NSRange(location: location, length: end - location)
    }

    /// Whether an edit may start or end at a UTF-16 offset.
    ///
    /// Offsets outside the text are never boundaries.
    ///
    /// - Parameters:
    ///   - utf16Offset: An offset in UTF-16 code units from the start of the text.
    ///   - boundary: The unit an edit must not cut through.
    public func isBoundary(atUTF16Offset utf16Offset: Int, _ boundary: TextBoundary = .graphemeCluster) -> Bool {
        (try? indexRange(of: NSRange(location: utf16Offset, length: 0), boundary: boundary)) != nil
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
        try checkShape(of: range)
        let lowerScalar = try scalarIndex(atUTF16Offset: range.location, of: range, roundingUp: false)
        let lower = characterStart(containing: lowerScalar.index)
        let location = lowerScalar.offset - utf16Distance(from: lower, to: lowerScalar.index)
        guard range.length > 0 else { return NSRange(location: location, length: 0) }
        let (upperOffset, overflow) = range.location.addingReportingOverflow(range.length)
        guard !overflow else { throw outOfBounds(range) }
        let upperScalar = try scalarIndex(atUTF16Offset: upperOffset, of: range, roundingUp: true, from: lowerScalar)
        let upper = characterEnd(containing: upperScalar.index)
        let end = upperScalar.offset + utf16Distance(from: upperScalar.index, to: upper)
        return NSRange(location: location, length: end - location)
    }

    /// The nearest character boundary at or before a UTF-16 offset.
    ///
    /// Use it to place a caret that a UTF-16 computation left inside a character.
    ///
    /// - Parameter utf16Offset: An offset in UTF-16 code units, from 0 to the text's UTF-16 length.
    /// - Returns: The offset of the start of the character containing `utf16Offset`, or
    ///   `utf16Offset` itself when it already is a boundary.
    /// - Throws: ``TextEditError`` for an offset outside the text.
    public func characterBoundary(atOrBefore utf16Offset: Int) throws(TextEditError) -> Int {
        let caret = NSRange(location: utf16Offset, length: 0)
        try checkShape(of: caret)
        let scalar = try scalarIndex(atUTF16Offset: utf16Offset, of: caret, roundingUp: false)
        return scalar.offset - utf16Distance(from: characterStart(containing: scalar.index), to: scalar.index)
    }

    /// The nearest character boundary at or after a UTF-16 offset.
    ///
    /// Use it for a caret after an insertion that merged with the following text, such as a
    /// regional indicator typed before another one.
    ///
    /// - Parameter utf16Offset: An offset in UTF-16 code units, from 0 to the text's UTF-16 length.
    /// - Returns: The offset of the end of the character containing `utf16Offset`, or
    ///   `utf16Offset` itself when it already is a boundary.
    /// - Throws: ``TextEditError`` for an offset outside the text.
    public func characterBoundary(atOrAfter utf16Offset: Int) throws(TextEditError) -> Int {
        let caret = NSRange(location: utf16Offset, length: 0)
        try checkShape(of: caret)
        let scalar = try scalarIndex(atUTF16Offset: utf16Offset, of: caret, roundingUp: true)
        return scalar.offset + utf16Distance(from: scalar.index, to: characterEnd(containing: scalar.index))
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
        let length = utf16Distance(from: index(before: end), to: end)
        return NSRange(location: utf16Offset - length, length: length)
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
        return NSRange(location: utf16Offset, length: utf16Distance(from: start, to: index(after: start)))
    }

    /// Refuses a range that is not one: `NSNotFound`, or a negative location or length.
    private func checkShape(of range: NSRange) throws(TextEditError) {
        guard range.location != NSNotFound, range.location >= 0, range.length >= 0 else {
            throw .invalidRange(location: range.location, length: range.length)
        }
    }

    /// The error for a range that reaches past the end; the length is only counted then.
    private func outOfBounds(_ range: NSRange) -> TextEditError {
        .outOfBounds(location: range.location, length: range.length, utf16Length: utf16Length)
    }

    /// The index at a UTF-16 offset of `range`, refused when it is past the end or cuts
    /// through `boundary`.
    private func checkedIndex(
        atUTF16Offset offset: Int,
        of range: NSRange,
        boundary: TextBoundary,
        from start: (index: String.Index, offset: Int)? = nil
    ) throws(TextEditError) -> String.Index {
        switch utf16Position(atOffset: offset, from: start) {
        case .pastEnd:
            throw outOfBounds(range)
        case .insideSurrogatePair:
            throw .splitsSurrogatePair(utf16Offset: offset)
        case let .index(index):
            // `samePosition(in:)` looks only at the neighbouring scalars of one cluster, so
            // the check costs the length of a character, not of the text.
            if boundary == .graphemeCluster, index.samePosition(in: self) == nil {
                throw .splitsGraphemeCluster(utf16Offset: offset)
            }
            return index
        }
    }

    /// The index at a UTF-16 offset of `range`, moved off the middle of a surrogate pair,
    /// with the UTF-16 offset it ends up at.
    private func scalarIndex(
        atUTF16Offset offset: Int,
        of range: NSRange,
        roundingUp: Bool,
        from start: (index: String.Index, offset: Int)? = nil
    ) throws(TextEditError) -> (index: String.Index, offset: Int) {
        switch utf16Position(atOffset: offset, from: start) {
        case .pastEnd:
            throw outOfBounds(range)
        case let .insideSurrogatePair(scalar):
            return roundingUp ? (unicodeScalars.index(after: scalar), offset + 1) : (scalar, offset - 1)
        case let .index(index):
            return (index, offset)
        }
    }

    /// The UTF-16 code units between two scalar-aligned indices, `start` first.
    private func utf16Distance(from start: String.Index, to end: String.Index) -> Int {
        utf16Offset(of: end, from: (start, 0))
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
