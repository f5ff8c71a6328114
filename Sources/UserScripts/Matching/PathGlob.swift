/// The path part of a match pattern, compiled once: the literal pieces between its `*`s.
///
/// A `*` matches any run of characters, `/` and `?` included; everything else is literal and
/// case-sensitive. The glob is matched against a URL's path plus `?` and query. It is a class so
/// that the matcher can hold and pass thousands of them without copying their contents.
final class PathGlob: Hashable, Sendable {
    /// The path as written in the pattern, starting with `/`.
    let text: String
    private let pieces: WildcardPieces
    /// For rule 7: `/dir/*` also matches `/dir`.
    private let directoryWithoutSlash: [UInt8]?

    init(_ text: String) {
        self.text = text
        pieces = WildcardPieces(Array(text.utf8))
        directoryWithoutSlash = text.hasSuffix("/*") && text.count > 2 ? Array(text.utf8.dropLast(2)) : nil
    }

    static func == (lhs: PathGlob, rhs: PathGlob) -> Bool {
        lhs.text == rhs.text
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(text)
    }

    /// Matches the UTF-8 of a URL's path and query (rule 7 included).
    func matches(bytes subject: UnsafeBufferPointer<UInt8>) -> Bool {
        if pieces.matches(subject) { return true }
        guard let directoryWithoutSlash else { return false }
        return subject.elementsEqual(directoryWithoutSlash)
    }
}

/// A glob whose only wildcard is `*` (any run of bytes), split into the literal pieces between
/// the stars and matched against a whole subject.
struct WildcardPieces: Hashable, Sendable {
    private let pieces: [[UInt8]]

    init(_ glob: [UInt8]) {
        pieces = glob.split(separator: UInt8(ascii: "*"), omittingEmptySubsequences: false).map(Array.init)
    }

    func matches(_ subject: UnsafeBufferPointer<UInt8>) -> Bool {
        guard pieces.count > 1 else { return subject.elementsEqual(pieces[0]) }
        let first = pieces[0]
        let last = pieces[pieces.count - 1]
        guard subject.count >= first.count + last.count,
              subject.prefix(first.count).elementsEqual(first),
              subject.suffix(last.count).elementsEqual(last) else { return false }
        // Leftmost placement of each middle piece is always optimal when the only wildcard is `*`.
        var position = first.count
        let end = subject.count - last.count
        for piece in pieces[1..<(pieces.count - 1)] where !piece.isEmpty {
            guard let found = Self.firstOccurrence(of: piece, in: subject, from: position, before: end) else { return false }
            position = found + piece.count
        }
        return true
    }

    private static func firstOccurrence(of piece: [UInt8], in subject: UnsafeBufferPointer<UInt8>, from start: Int, before end: Int) -> Int? {
        guard end - start >= piece.count else { return nil }
        let firstByte = piece[0]
        var index = start
        while index + piece.count <= end {
            if subject[index] == firstByte, subject[index..<(index + piece.count)].elementsEqual(piece) {
                return index
            }
            index += 1
        }
        return nil
    }
}
