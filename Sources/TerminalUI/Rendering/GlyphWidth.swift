/// How many terminal cells a character occupies, in the manner of `wcwidth(3)`.
///
/// The C library's `wcwidth` depends on the locale and on how old the libc is, and it works on
/// single code points, so emoji sequences and combining marks come out wrong. This type works
/// on grapheme clusters with its own tables (see `GlyphWidth+Tables.swift`), so the editor's
/// cursor columns agree with what a modern terminal draws.
enum GlyphWidth {
    /// The variation selector that asks for emoji presentation (VS16).
    private static let emojiPresentationSelector: UInt32 = 0xFE0F

    /// The width of one scalar on its own: 0 for marks and controls, 2 for wide, else 1.
    static func columns(of scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value >= 0x20 && value < 0x7F { return 1 }
        if value < 0x20 || (value >= 0x7F && value < 0xA0) { return 0 }
        if contains(zeroWidth, value) { return 0 }
        if contains(eastAsianWide, value) || contains(emojiPresentation, value) { return 2 }
        return 1
    }

    /// The width of a grapheme cluster: its first scalar decides, except that VS16 after an
    /// emoji base widens it to two cells (as in "❤️"), and following marks add nothing.
    static func columns(of character: Character) -> Int {
        if let byte = character.singleByte {
            return byte >= 0x20 && byte < 0x7F ? 1 : 0
        }
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        let base = columns(of: first)
        if base == 1 && first.properties.isEmoji && scalars.contains(where: { $0.value == emojiPresentationSelector }) {
            return 2
        }
        return base
    }

    /// The total width of a string, character by character.
    static func columns(of text: some StringProtocol) -> Int {
        var total = 0
        for character in text { total += columns(of: character) }
        return total
    }

    /// Binary search in sorted, non-overlapping ranges.
    private static func contains(_ table: [ClosedRange<UInt32>], _ value: UInt32) -> Bool {
        var low = 0
        var high = table.count - 1
        while low <= high {
            let middle = (low + high) / 2
            let range = table[middle]
            if value < range.lowerBound {
                high = middle - 1
            } else if value > range.upperBound {
                low = middle + 1
            } else {
                return true
            }
        }
        return false
    }
}
