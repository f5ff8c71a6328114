/// A set of ASCII bytes, as two 64-bit words: what one step of a URL regular expression can read.
///
/// The text a URL rule is matched against is always ASCII (browsers percent-encode everything
/// else in an address, and hosts are in Punycode), so a character class only ever has to answer
/// for the 128 ASCII bytes; whatever it says about other characters cannot change a match.
struct ASCIISet: Hashable, Sendable {
    private(set) var low: UInt64
    private(set) var high: UInt64

    init() {
        low = 0
        high = 0
    }

    private init(low: UInt64, high: UInt64) {
        self.low = low
        self.high = high
    }

    /// Every ASCII byte.
    static let all = ASCIISet(low: ~0, high: ~0)

    /// One byte (non-ASCII bytes give the empty set).
    init(_ byte: UInt8) {
        self.init()
        insert(byte)
    }

    /// The bytes from `lower` through `upper`, clipped to ASCII.
    init(range lower: UInt32, _ upper: UInt32) {
        self.init()
        guard lower <= upper, lower < 128 else { return }
        for value in lower...min(upper, 127) { insert(UInt8(value)) }
    }

    /// The bytes of `text`'s ASCII characters.
    init(_ text: String) {
        self.init()
        for byte in text.utf8 { insert(byte) }
    }

    /// `\d`.
    static let digits = ASCIISet(range: 0x30, 0x39)
    /// `\w`: letters, digits and `_`.
    static let wordCharacters = ASCIISet(range: 0x61, 0x7A).union(ASCIISet(range: 0x41, 0x5A)).union(.digits).union(ASCIISet(UInt8(ascii: "_")))
    /// `\s` within ASCII: tab, line feed, vertical tab, form feed, carriage return and space.
    static let whitespace = ASCIISet(range: 0x09, 0x0D).union(ASCIISet(UInt8(ascii: " ")))
    /// `.`: everything but the line terminators.
    static let notLineTerminator = ASCIISet.all.subtracting(ASCIISet(range: 0x0A, 0x0A)).subtracting(ASCIISet(range: 0x0D, 0x0D))

    var isEmpty: Bool { low == 0 && high == 0 }

    var count: Int { low.nonzeroBitCount + high.nonzeroBitCount }

    @inline(__always)
    func contains(_ byte: UInt8) -> Bool {
        if byte < 64 { return low & (1 << UInt64(byte)) != 0 }
        if byte < 128 { return high & (1 << UInt64(byte - 64)) != 0 }
        return false
    }

    mutating func insert(_ byte: UInt8) {
        if byte < 64 {
            low |= 1 << UInt64(byte)
        } else if byte < 128 {
            high |= 1 << UInt64(byte - 64)
        }
    }

    func union(_ other: ASCIISet) -> ASCIISet {
        ASCIISet(low: low | other.low, high: high | other.high)
    }

    func intersection(_ other: ASCIISet) -> ASCIISet {
        ASCIISet(low: low & other.low, high: high & other.high)
    }

    func subtracting(_ other: ASCIISet) -> ASCIISet {
        ASCIISet(low: low & ~other.low, high: high & ~other.high)
    }

    /// Every ASCII byte not in the set.
    var inverted: ASCIISet { ASCIISet(low: ~low, high: ~high) }

    func isSubset(of other: ASCIISet) -> Bool {
        subtracting(other).isEmpty
    }

    /// The set with each letter's other case added: how a case-insensitive expression reads it.
    var caseFolded: ASCIISet {
        // Upper case A-Z is bits 65...90 (high word bits 1...26), lower case a-z bits 97...122
        // (high word bits 33...58): the same letters 32 bits apart.
        let upperLetters: UInt64 = 0x7FF_FFFE
        let lowerLetters: UInt64 = upperLetters << 32
        let folded = high | ((high & upperLetters) << 32) | ((high & lowerLetters) >> 32)
        return ASCIISet(low: low, high: folded)
    }

    /// The bytes in the set, in order.
    var bytes: [UInt8] {
        (0..<128).compactMap { contains(UInt8($0)) ? UInt8($0) : nil }
    }
}
