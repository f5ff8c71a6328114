import Foundation
import SystemSupport

/// The document's lines as UTF-8 bytes, folded for a case-insensitive search, so that finding
/// the next match scans bytes instead of comparing grapheme clusters.
///
/// Lines are converted the first time a search reaches them and forgotten when an edit touches
/// them (``replaceRows(_:insertedCount:)``), so a search over a 10,000-line script converts the
/// script once and then only the lines that changed. For going to the next match and counting,
/// the converted lines are also kept joined in one buffer (rebuilt from them after an edit), which
/// a SIMD scan crosses without stopping at each line: the next match 5,000 lines away costs one
/// pass over those bytes, not 5,000 line lookups; and the matches of the needle last counted are
/// listed until the next edit, so stepping through them is a binary search. Each line remembers which character every
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

    /// Every prepared line, each followed by a line feed (which no needle holds, so no match
    /// spans two lines), and where each row starts in it.
    private struct Joined: Sendable {
        var bytes: [UInt8]
        var rowStarts: [Int]

        /// The row whose bytes hold `offset` (binary search).
        func row(containing offset: Int) -> Int {
            rowStarts.indexOfStart(holding: offset)
        }

        /// Where row `row` ends: the start of the next one, or the end of the buffer.
        func end(ofRow row: Int) -> Int {
            row + 1 < rowStarts.count ? rowStarts[row + 1] : bytes.count
        }
    }

    /// Whether upper and lower case are told apart.
    private(set) var matchCase: Bool
    private var prepared: [Line?] = []
    /// The joined lines; `nil` until a search needs them after an edit.
    private var joined: Joined?
    /// Every match of the needle last counted, in document order, while the document stays as
    /// it was: going to the next match is then a binary search. `matches` is `nil` when there
    /// are more than ``listLimit``, and the search scans instead.
    private var list: (needle: [UInt8], matches: [TextRange]?)?

    /// Matches listed at most; more are found by scanning.
    static let listLimit = 10_000

    init(matchCase: Bool = false) {
        self.matchCase = matchCase
    }

    /// Starts over with another case rule.
    mutating func setMatchCase(_ value: Bool) {
        guard value != matchCase else { return }
        matchCase = value
        prepared = []
        joined = nil
        list = nil
    }

    /// Forgets the rows an edit replaced and makes room for the rows it inserted.
    mutating func replaceRows(_ rows: ClosedRange<Int>, insertedCount: Int) {
        joined = nil
        list = nil
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
    ///
    /// With the needle's matches listed, this is a binary search. Otherwise (more matches than
    /// ``listLimit``) the joined buffer is scanned for the needle's bytes; only a row where they
    /// occur is looked at closely (``matches(of:inRow:lines:)``, which also refuses matches that
    /// cut a character), so the rows in between cost no more than their bytes.
    mutating func next(_ needle: [UInt8], from position: TextPosition, forward: Bool, lines: [[Character]]) -> TextRange? {
        guard !needle.isEmpty, !lines.isEmpty else { return nil }
        if let matches = listedMatches(of: needle, lines: lines) {
            guard !matches.isEmpty else { return nil }
            let after = Self.firstIndex(in: matches) { $0.start >= position }
            if forward {
                return after < matches.count ? matches[after] : matches[0]
            }
            return after > 0 ? matches[after - 1] : matches[matches.count - 1]
        }
        let joined = joinedLines(lines)
        let scanner = ByteScanner(needle)
        // Going round the end, the starting row is looked at again, for the matches on the
        // other side of `position`.
        for wrapped in [false, true] {
            var offset = forward ? (wrapped ? 0 : joined.rowStarts[position.row]) : (wrapped ? joined.bytes.count : joined.end(ofRow: position.row))
            while let hit = forward ? scanner.first(in: joined.bytes, from: offset) : scanner.last(in: joined.bytes, before: offset) {
                let row = joined.row(containing: hit)
                if wrapped, forward ? row > position.row : row < position.row { return nil }
                let found = matches(of: needle, inRow: row, lines: lines)
                let pick: Range<Int>? = if row != position.row {
                    forward ? found.first : found.last
                } else if forward {
                    wrapped ? found.first { $0.lowerBound < position.column } : found.first { $0.lowerBound >= position.column }
                } else {
                    wrapped ? found.last { $0.lowerBound >= position.column } : found.last { $0.lowerBound < position.column }
                }
                if let pick {
                    return TextRange(TextPosition(row: row, column: pick.lowerBound), TextPosition(row: row, column: pick.upperBound))
                }
                offset = forward ? joined.end(ofRow: row) : joined.rowStarts[row]
            }
        }
        return nil
    }

    /// How many matches rows `0..<rows` hold (every row by default), counting up to `limit`.
    mutating func count(of needle: [UInt8], lines: [[Character]], limit: Int, inRowsBefore rows: Int? = nil) -> Int {
        guard !needle.isEmpty, !lines.isEmpty else { return 0 }
        if let matches = listedMatches(of: needle, lines: lines) {
            let total = rows.map { row in Self.firstIndex(in: matches) { $0.start.row >= row } } ?? matches.count
            return min(total, limit)
        }
        let joined = joinedLines(lines)
        let scanner = ByteScanner(needle)
        let end = rows.map { $0 < joined.rowStarts.count ? joined.rowStarts[$0] : joined.bytes.count } ?? joined.bytes.count
        var total = 0
        var offset = 0
        while let hit = scanner.first(in: joined.bytes, from: offset), hit < end {
            let row = joined.row(containing: hit)
            total += matches(of: needle, inRow: row, lines: lines).count
            if total >= limit { return limit }
            offset = joined.end(ofRow: row)
        }
        return total
    }

    /// The matches of `needle` in document order, listed in one pass over the joined lines the
    /// first time they are asked for since an edit; `nil` when there are more than
    /// ``listLimit``.
    private mutating func listedMatches(of needle: [UInt8], lines: [[Character]]) -> [TextRange]? {
        if let list, list.needle == needle { return list.matches }
        let joined = joinedLines(lines)
        let scanner = ByteScanner(needle)
        var matches: [TextRange]? = []
        var offset = 0
        while let hit = scanner.first(in: joined.bytes, from: offset) {
            let row = joined.row(containing: hit)
            for found in self.matches(of: needle, inRow: row, lines: lines) {
                matches?.append(TextRange(TextPosition(row: row, column: found.lowerBound), TextPosition(row: row, column: found.upperBound)))
            }
            if (matches?.count ?? 0) > Self.listLimit {
                matches = nil
                break
            }
            offset = joined.end(ofRow: row)
        }
        list = (needle, matches)
        return matches
    }

    /// The index of the first match that `isAtOrAfter` holds for (they hold from some index on),
    /// or `matches.count`.
    private static func firstIndex(in matches: [TextRange], where isAtOrAfter: (TextRange) -> Bool) -> Int {
        var low = 0
        var high = matches.count
        while low < high {
            let middle = (low + high) / 2
            if isAtOrAfter(matches[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// The joined lines, built from the prepared lines (preparing those an edit dropped) when an
    /// edit or a new case rule dropped them.
    private mutating func joinedLines(_ lines: [[Character]]) -> Joined {
        if let joined, joined.rowStarts.count == lines.count { return joined }
        var bytes: [UInt8] = []
        // A byte a character and one for each line feed, which covers ASCII; others grow it.
        bytes.reserveCapacity(lines.reduce(lines.count) { $0 + $1.count })
        var rowStarts: [Int] = []
        rowStarts.reserveCapacity(lines.count)
        for row in lines.indices {
            let line = line(row, in: lines)
            rowStarts.append(bytes.count)
            bytes.append(contentsOf: line.bytes)
            bytes.append(0x0A)
        }
        let built = Joined(bytes: bytes, rowStarts: rowStarts)
        joined = built
        return built
    }

    private static func prepare(_ characters: [Character], matchCase: Bool) -> Line {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(characters.count)
        var owners: [Int32] = []
        var isASCII = true
        for (index, character) in characters.enumerated() {
            if let ascii = character.singleByte {
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

    /// The first offset at or after `from` where `needle` occurs in `bytes`: `memchr` for its
    /// first byte, which is quickest within one line.
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

/// Finds a needle's bytes by comparing its first and last bytes with 16 positions at a time
/// (SIMD), and the bytes between only where both agree: a pass over code is much faster than a
/// byte-at-a-time loop or a `memchr` per candidate on text where the needle's letters are common.
private struct ByteScanner {
    private let needle: [UInt8]

    init(_ needle: [UInt8]) {
        self.needle = needle
    }

    /// The first offset at or after `from` where the needle occurs.
    func first(in bytes: [UInt8], from: Int) -> Int? {
        let length = needle.count
        guard length > 0, from >= 0, bytes.count - from >= length else { return nil }
        return bytes.withUnsafeBufferPointer { haystack -> Int? in
            needle.withUnsafeBufferPointer { wanted -> Int? in
                let base = UnsafeRawPointer(haystack.baseAddress!)
                let first = SIMD16<UInt8>(repeating: wanted[0])
                let last = SIMD16<UInt8>(repeating: wanted[length - 1])
                let lastStart = haystack.count - length
                var start = from
                while start + 15 <= lastStart {
                    let heads = base.loadUnaligned(fromByteOffset: start, as: SIMD16<UInt8>.self)
                    let tails = base.loadUnaligned(fromByteOffset: start + length - 1, as: SIMD16<UInt8>.self)
                    let candidates = (heads .== first) .& (tails .== last)
                    if any(candidates) {
                        for lane in 0..<16 where candidates[lane] && middleMatches(haystack, at: start + lane, wanted) {
                            return start + lane
                        }
                    }
                    start += 16
                }
                while start <= lastStart {
                    if haystack[start] == wanted[0], haystack[start + length - 1] == wanted[length - 1],
                       middleMatches(haystack, at: start, wanted) {
                        return start
                    }
                    start += 1
                }
                return nil
            }
        }
    }

    /// The last offset before `limit` where the needle starts (and fits in `bytes`).
    func last(in bytes: [UInt8], before limit: Int) -> Int? {
        let length = needle.count
        guard length > 0, bytes.count >= length else { return nil }
        return bytes.withUnsafeBufferPointer { haystack -> Int? in
            needle.withUnsafeBufferPointer { wanted -> Int? in
                let base = UnsafeRawPointer(haystack.baseAddress!)
                let first = SIMD16<UInt8>(repeating: wanted[0])
                let last = SIMD16<UInt8>(repeating: wanted[length - 1])
                // `top` is the highest start still to look at.
                var top = min(limit - 1, haystack.count - length)
                while top - 15 >= 0 {
                    let block = top - 15
                    let heads = base.loadUnaligned(fromByteOffset: block, as: SIMD16<UInt8>.self)
                    let tails = base.loadUnaligned(fromByteOffset: block + length - 1, as: SIMD16<UInt8>.self)
                    let candidates = (heads .== first) .& (tails .== last)
                    if any(candidates) {
                        for lane in stride(from: 15, through: 0, by: -1) where candidates[lane] && middleMatches(haystack, at: block + lane, wanted) {
                            return block + lane
                        }
                    }
                    top -= 16
                }
                while top >= 0 {
                    if haystack[top] == wanted[0], haystack[top + length - 1] == wanted[length - 1],
                       middleMatches(haystack, at: top, wanted) {
                        return top
                    }
                    top -= 1
                }
                return nil
            }
        }
    }

    /// Whether the bytes between the needle's first and last agree at `start`.
    private func middleMatches(_ haystack: UnsafeBufferPointer<UInt8>, at start: Int, _ wanted: UnsafeBufferPointer<UInt8>) -> Bool {
        wanted.count <= 2 || memcmp(haystack.baseAddress! + start + 1, wanted.baseAddress! + 1, wanted.count - 2) == 0
    }
}
