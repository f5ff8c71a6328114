import Foundation
import SystemSupport

/// The document's lines as UTF-8 bytes, folded for a case-insensitive search, so that finding
/// the next match scans bytes with `memchr` instead of comparing grapheme clusters.
///
/// Lines are converted the first time a search reaches them and forgotten when an edit touches
/// them (``replaceRows(_:insertedCount:)``), so a search over a 10,000-line script converts the
/// script once and then only the lines that changed. Each line remembers which character every
/// byte belongs to when the two differ (anything but ASCII), so a match maps back to whole
/// characters, and a match that would start or end inside a character is no match. Both sides
/// are compared in Unicode's composed form (NFC), so `é` typed as one code point finds an `é`
/// written as `e` plus a combining accent, as the editor's own characters compare.
struct SearchIndex: Sendable {
    /// One line prepared for searching.
    struct Line: Sendable {
        var bytes: [UInt8]
        /// The character each byte belongs to; empty when the line is ASCII (byte = character).
        var characterOfByte: [Int32]
        var characterCount: Int

        func character(atByte offset: Int) -> Int {
            characterOfByte.isEmpty ? offset : (offset < characterOfByte.count ? Int(characterOfByte[offset]) : characterCount)
        }

        /// Whether a character starts at byte `offset` (the line's end counts as one).
        func isBoundary(_ offset: Int) -> Bool {
            guard !characterOfByte.isEmpty, offset > 0, offset < characterOfByte.count else { return true }
            return characterOfByte[offset] != characterOfByte[offset - 1]
        }
    }

    /// Whether upper and lower case are told apart.
    private(set) var matchCase: Bool
    private var prepared: [Line?] = []

    init(matchCase: Bool = false) {
        self.matchCase = matchCase
    }

    /// Starts over with another case rule.
    mutating func setMatchCase(_ value: Bool) {
        guard value != matchCase else { return }
        matchCase = value
        prepared = []
    }

    /// Forgets the rows an edit replaced and makes room for the rows it inserted.
    mutating func replaceRows(_ rows: ClosedRange<Int>, insertedCount: Int) {
        guard rows.lowerBound < prepared.count else { return }
        let upper = min(rows.upperBound, prepared.count - 1)
        prepared.replaceSubrange(rows.lowerBound...upper, with: repeatElement(nil, count: insertedCount))
    }

    /// The needle as the index compares it.
    func fold(_ needle: String) -> [UInt8] {
        Array((matchCase ? needle : needle.lowercased()).precomposedStringWithCanonicalMapping.utf8)
    }

    /// Line `row` prepared for searching, converting it on first use.
    mutating func line(_ row: Int, in lines: [[Character]]) -> Line {
        if prepared.count != lines.count {
            if prepared.count < lines.count {
                prepared.append(contentsOf: repeatElement(nil, count: lines.count - prepared.count))
            } else {
                prepared.removeSubrange(lines.count...)
            }
        }
        if let line = prepared[row] { return line }
        let line = Self.prepare(lines[row], matchCase: matchCase)
        prepared[row] = line
        return line
    }

    /// Every match of `needle` (already folded) in row `row`, as character ranges.
    mutating func matches(of needle: [UInt8], inRow row: Int, lines: [[Character]]) -> [Range<Int>] {
        guard !needle.isEmpty else { return [] }
        let line = self.line(row, in: lines)
        var result: [Range<Int>] = []
        var from = 0
        while let start = Self.find(needle, in: line.bytes, from: from) {
            let end = start + needle.count
            if line.isBoundary(start), line.isBoundary(end) {
                result.append(line.character(atByte: start)..<line.character(atByte: end))
                from = end
            } else {
                from = start + 1
            }
        }
        return result
    }

    /// The first match at or after `position` (forward), or the last one before it (backward),
    /// going round the document's end; `nil` when there is none.
    mutating func next(_ needle: [UInt8], from position: TextPosition, forward: Bool, lines: [[Character]]) -> TextRange? {
        guard !needle.isEmpty, !lines.isEmpty else { return nil }
        let count = lines.count
        for step in 0...count {
            let row = forward ? (position.row + step) % count : (position.row - step + count * 2) % count
            let found = matches(of: needle, inRow: row, lines: lines)
            guard !found.isEmpty else { continue }
            let pick: Range<Int>?
            if step == 0 {
                pick = forward ? found.first { $0.lowerBound >= position.column } : found.last { $0.lowerBound < position.column }
            } else if step == count {
                // Back on the starting row after going all the way round.
                pick = forward ? found.first { $0.lowerBound < position.column } : found.last { $0.lowerBound >= position.column }
            } else {
                pick = forward ? found.first : found.last
            }
            if let pick {
                return TextRange(TextPosition(row: row, column: pick.lowerBound), TextPosition(row: row, column: pick.upperBound))
            }
        }
        return nil
    }

    /// How many matches the document holds, counting up to `limit`.
    mutating func count(of needle: [UInt8], lines: [[Character]], limit: Int) -> Int {
        var total = 0
        for row in lines.indices {
            total += matches(of: needle, inRow: row, lines: lines).count
            if total >= limit { return limit }
        }
        return total
    }

    private static func prepare(_ characters: [Character], matchCase: Bool) -> Line {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(characters.count)
        var owners: [Int32] = []
        var isASCII = true
        for (index, character) in characters.enumerated() {
            if let ascii = character.asciiValue, character.utf8.count == 1 {
                let byte = !matchCase && ascii >= 0x41 && ascii <= 0x5A ? ascii + 0x20 : ascii
                bytes.append(byte)
                if !isASCII { owners.append(Int32(index)) }
                continue
            }
            if isASCII {
                isASCII = false
                owners = (0..<bytes.count).map { Int32($0) }
            }
            let text = (matchCase ? String(character) : String(character).lowercased()).precomposedStringWithCanonicalMapping
            for byte in text.utf8 {
                bytes.append(byte)
                owners.append(Int32(index))
            }
        }
        return Line(bytes: bytes, characterOfByte: isASCII ? [] : owners, characterCount: characters.count)
    }

    /// The first offset at or after `from` where `needle` occurs in `bytes`.
    private static func find(_ needle: [UInt8], in bytes: [UInt8], from: Int) -> Int? {
        let length = needle.count
        guard length > 0, bytes.count - from >= length else { return nil }
        let first = Int32(needle[0])
        return bytes.withUnsafeBufferPointer { haystack -> Int? in
            needle.withUnsafeBufferPointer { wanted -> Int? in
                guard let base = haystack.baseAddress, let wantedBase = wanted.baseAddress else { return nil }
                var offset = from
                let lastStart = haystack.count - length
                while offset <= lastStart {
                    guard let hit = memchr(base + offset, first, lastStart - offset + 1) else { return nil }
                    let start = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                    if length == 1 || memcmp(base + start + 1, wantedBase + 1, length - 1) == 0 {
                        return start
                    }
                    offset = start + 1
                }
                return nil
            }
        }
    }
}
