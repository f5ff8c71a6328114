/// Character classes of ECMAScript source, on UTF-16 code units.
enum CodeUnit {
    static let lineFeed: UInt16 = 0x0A
    static let carriageReturn: UInt16 = 0x0D
    static let lineSeparator: UInt16 = 0x2028
    static let paragraphSeparator: UInt16 = 0x2029
    static let backslash: UInt16 = 0x5C

    @inline(__always)
    static func isLineTerminator(_ unit: UInt16) -> Bool {
        unit == lineFeed || unit == carriageReturn || unit == lineSeparator || unit == paragraphSeparator
    }

    /// Whitespace other than line terminators: tab, vertical tab, form feed, space, no-break
    /// space, the byte order mark and every other space separator (Zs).
    @inline(__always)
    static func isWhitespace(_ unit: UInt16) -> Bool {
        switch unit {
        case 0x09, 0x0B, 0x0C, 0x20: return true
        case 0..<0x80: return false
        case 0xA0, 0xFEFF, 0x1680, 0x2000...0x200A, 0x202F, 0x205F, 0x3000: return true
        default: return false
        }
    }

    @inline(__always)
    static func isDecimalDigit(_ unit: UInt16) -> Bool {
        unit &- 0x30 < 10
    }

    @inline(__always)
    static func isHexDigit(_ unit: UInt16) -> Bool {
        hexValue(unit) != nil
    }

    @inline(__always)
    static func hexValue(_ unit: UInt16) -> UInt32? {
        switch unit {
        case 0x30...0x39: UInt32(unit - 0x30)
        case 0x41...0x46: UInt32(unit - 0x41 + 10)
        case 0x61...0x66: UInt32(unit - 0x61 + 10)
        default: nil
        }
    }

    /// `a`-`z`, `A`-`Z`, `$` or `_`.
    @inline(__always)
    static func isASCIIIdentifierStart(_ unit: UInt16) -> Bool {
        (unit | 0x20) &- 0x61 < 26 || unit == 0x24 || unit == 0x5F
    }

    /// `a`-`z`, `A`-`Z`, `0`-`9`, `$` or `_`.
    @inline(__always)
    static func isASCIIIdentifierPart(_ unit: UInt16) -> Bool {
        isASCIIIdentifierStart(unit) || isDecimalDigit(unit)
    }

    /// The UTF-16 code units of `string`, transcoded from its UTF-8 storage directly (much faster
    /// than going through `String.UTF16View` element by element).
    static func utf16(_ string: String) -> [UInt16] {
        var string = string
        return string.withUTF8 { bytes in
            var units = [UInt16]()
            units.reserveCapacity(bytes.count)
            var index = 0
            let count = bytes.count
            while index < count {
                let byte = bytes[index]
                if byte < 0x80 {
                    units.append(UInt16(byte))
                    index += 1
                    continue
                }
                // Valid UTF-8 (a Swift string's storage always is): a lead byte and its continuations.
                var scalar: UInt32
                let length: Int
                if byte < 0xE0 {
                    scalar = UInt32(byte & 0x1F)
                    length = 2
                } else if byte < 0xF0 {
                    scalar = UInt32(byte & 0x0F)
                    length = 3
                } else {
                    scalar = UInt32(byte & 0x07)
                    length = 4
                }
                for offset in 1..<length {
                    scalar = scalar << 6 | UInt32(bytes[index + offset] & 0x3F)
                }
                index += length
                if scalar > 0xFFFF {
                    let value = scalar - 0x10000
                    units.append(UInt16(0xD800 + (value >> 10)))
                    units.append(UInt16(0xDC00 + (value & 0x3FF)))
                } else {
                    units.append(UInt16(scalar))
                }
            }
            return units
        }
    }

    /// ID_Start, plus `$` and `_`, as ECMAScript's IdentifierStartChar. A code point this
    /// Swift's Unicode tables do not know yet counts as a letter: a newer engine may know it as
    /// one, and refusing valid code is worse than leaving an error to the engine.
    static func isIdentifierStart(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.value < 128 { return isASCIIIdentifierStart(UInt16(scalar.value)) }
        return scalar.properties.isIDStart || scalar.properties.generalCategory == .unassigned
    }

    /// ID_Continue, plus `$`, ZERO WIDTH NON-JOINER and ZERO WIDTH JOINER, as ECMAScript's
    /// IdentifierPartChar; unknown code points count, as in ``isIdentifierStart(_:)``.
    static func isIdentifierPart(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.value < 128 { return isASCIIIdentifierPart(UInt16(scalar.value)) }
        return scalar.value == 0x200C || scalar.value == 0x200D || scalar.properties.isIDContinue
            || scalar.properties.generalCategory == .unassigned
    }
}
