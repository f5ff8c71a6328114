extension String {
    /// The number of characters after `insertion` replaces `bounds`, given that the text holds
    /// `knownCount` characters now; only the characters around the edit are counted.
    ///
    /// An edit can change characters beyond its own range: a combining mark or a zero-width
    /// joiner typed after a letter or an emoji joins it, a regional indicator re-pairs the
    /// flags after it, a deleted "\n" after "\r" ends a CRLF. So the count covers a window from
    /// the character before the edit to a character boundary after it that is a boundary both
    /// before and after the edit, widened one character at a time until it is.
    ///
    /// Why the window is enough (UAX #29): whether two scalars are split depends on the scalars
    /// before the split and the one scalar after it, and only regional indicators look back past
    /// the start of the current character, for the parity of the run they are in. The window
    /// starts at a boundary before the edit whose following scalar the edit does not touch, so
    /// it stays a boundary; a boundary between regional indicators comes after an even number
    /// of them, so a window counted on its own splits as it does in the whole text. After a
    /// boundary both texts share, the rest of the text is the same and splits the same way.
    ///
    /// - Parameters:
    ///   - bounds: The replaced range; its bounds lie on Unicode scalar boundaries.
    ///   - insertion: The text that replaces it.
    ///   - knownCount: The characters in the text now (`count`).
    /// - Returns: The characters in the text after the edit.
    func characterCount(replacing bounds: Range<Index>, with insertion: Substring, knownCount: Int) -> Int {
        let windowStart = characterStart(before: bounds.lowerBound)
        var windowEnd = bounds.upperBound == endIndex ? endIndex : index(after: bounds.upperBound)
        while true {
            var replaced = String(self[windowStart..<bounds.lowerBound])
            replaced += insertion
            replaced += self[bounds.upperBound..<windowEnd]
            if windowEnd == endIndex || continues(replaced, at: windowEnd) {
                return knownCount - self[windowStart..<windowEnd].count + replaced.count
            }
            windowEnd = index(after: windowEnd)
        }
    }

    /// The characters of the text before `bounds` plus those of the text after it, each counted
    /// on its own, given that the text holds `knownCount` characters; only the characters around
    /// `bounds` are counted.
    ///
    /// This is how much of a field a replacement of `bounds` keeps; see
    /// ``characterCount(replacing:with:knownCount:)`` for why a window is enough.
    func characterCount(keptAround bounds: Range<Index>, knownCount: Int) -> Int {
        let windowStart = characterStart(before: bounds.lowerBound)
        var windowEnd = bounds.upperBound == endIndex ? endIndex : index(after: bounds.upperBound)
        let before = String(self[windowStart..<bounds.lowerBound]).count
        while true {
            let after = String(self[bounds.upperBound..<windowEnd])
            if windowEnd == endIndex || continues(after, at: windowEnd) {
                return knownCount - self[windowStart..<windowEnd].count + before + after.count
            }
            windowEnd = index(after: windowEnd)
        }
    }

    /// The start of the character before the one that holds `index`: a boundary that an edit
    /// at `index` leaves in place, since the scalar after it is not edited.
    private func characterStart(before index: Index) -> Index {
        guard index > startIndex, index >= self.index(after: startIndex) else { return startIndex }
        // `index(before:)` first rounds an index inside a character down to that character's start.
        return self.index(before: index)
    }

    /// Whether `head` followed by the rest of this text from `position` splits into characters
    /// at the seam, so that the rest counts as it does in this text.
    private func continues(_ head: String, at position: Index) -> Bool {
        let seam = head.utf8.count
        var joined = head
        joined += self[position..<index(after: position)]
        var boundary = joined.startIndex
        while boundary < joined.endIndex {
            let offset = joined.utf8.distance(from: joined.startIndex, to: boundary)
            if offset >= seam { return offset == seam }
            boundary = joined.index(after: boundary)
        }
        return false
    }
}
