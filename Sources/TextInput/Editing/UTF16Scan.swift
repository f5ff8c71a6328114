/// Counting UTF-16 code units in UTF-8 bytes.
///
/// Every scalar counts at its lead byte: one unit, or two for a four-byte lead (a scalar
/// outside the Basic Multilingual Plane, which UTF-16 writes as a surrogate pair).
/// Continuation bytes count nothing.
enum UTF16Scan {
    /// Where a scan for a UTF-16 offset stopped.
    enum Found {
        /// At the lead byte of a scalar (or the end of the text) with this offset.
        case byte(Int)
        /// Inside the four-byte scalar starting at this offset: between its surrogates.
        case insideFourByteScalar(leadByte: Int)
        /// The text ended first.
        case pastEnd
    }

    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// Finds the byte offset where `target` UTF-16 units have passed.
    static func find(_ target: Int, in bytes: UnsafeBufferPointer<UInt8>, fromByte start: Int, units startUnits: Int) -> Found {
        var byte = start
        var units = startUnits
        // Four words at a time, then one, while the target lies beyond them.
        while byte + 32 <= bytes.count {
            let blockUnits = unitsInWord(at: byte, of: bytes) + unitsInWord(at: byte + 8, of: bytes)
                + unitsInWord(at: byte + 16, of: bytes) + unitsInWord(at: byte + 24, of: bytes)
            guard units + blockUnits < target else { break }
            units += blockUnits
            byte += 32
        }
        while byte + 8 <= bytes.count {
            let wordUnits = unitsInWord(at: byte, of: bytes)
            guard units + wordUnits < target else { break }
            units += wordUnits
            byte += 8
        }
        while byte < bytes.count {
            let lead = bytes[byte]
            if lead & 0xC0 != 0x80 {
                if units == target { return .byte(byte) }
                if lead >= 0xF0 {
                    if units + 1 == target { return .insideFourByteScalar(leadByte: byte) }
                    units += 2
                } else {
                    units += 1
                }
            }
            byte += 1
        }
        return units == target ? .byte(bytes.count) : .pastEnd
    }

    /// The UTF-16 units of the scalars whose lead bytes lie in `start..<end`.
    static func count(in bytes: UnsafeBufferPointer<UInt8>, fromByte start: Int, toByte end: Int) -> Int {
        var byte = start
        var units = 0
        while byte + 32 <= end {
            units += unitsInWord(at: byte, of: bytes) + unitsInWord(at: byte + 8, of: bytes)
                + unitsInWord(at: byte + 16, of: bytes) + unitsInWord(at: byte + 24, of: bytes)
            byte += 32
        }
        while byte + 8 <= end {
            units += unitsInWord(at: byte, of: bytes)
            byte += 8
        }
        while byte < end {
            let lead = bytes[byte]
            if lead & 0xC0 != 0x80 { units += lead >= 0xF0 ? 2 : 1 }
            byte += 1
        }
        return units
    }

    /// The UTF-16 units counted at the lead bytes among eight bytes.
    private static func unitsInWord(at byte: Int, of bytes: UnsafeBufferPointer<UInt8>) -> Int {
        let word = UnsafeRawBufferPointer(bytes).loadUnaligned(fromByteOffset: byte, as: UInt64.self)
        if word & highBits == 0 { return 8 }
        // A continuation byte is 10xxxxxx: high bit set, next bit clear.
        let continuation = word & ~(word << 1) & highBits
        // A four-byte lead is 11110xxx: the four high bits set.
        let fourByteLead = word & (word << 1) & (word << 2) & (word << 3) & highBits
        return 8 - bytesMarked(continuation) + bytesMarked(fourByteLead)
    }

    /// How many bytes of a word have their high bit set, when no other bit is.
    ///
    /// A multiplication sums the eight bits into the top byte; `nonzeroBitCount` would do,
    /// but compiles to a slow software loop for x86-64 targets without POPCNT.
    private static func bytesMarked(_ highBitsOnly: UInt64) -> Int {
        Int(((highBitsOnly >> 7) &* 0x0101_0101_0101_0101) >> 56)
    }
}
