/// An IPv4 address, read the way browsers read one in a URL host.
///
/// Browsers accept the historical shorthand forms (`127.1`, `0x7f.0.0.1`, `0177.0.0.1`,
/// `2130706433`) and all of them name `127.0.0.1`; matching must agree with the browser about
/// which machine a URL points at, so the same forms are accepted here and compared by value.
public struct IPv4Address: Hashable, Sendable, CustomStringConvertible {
    /// The address as a 32-bit number, most significant byte first.
    public let value: UInt32

    /// The address with this 32-bit value (`0x7F00_0001` is `127.0.0.1`).
    public init(value: UInt32) {
        self.value = value
    }

    /// The dotted-decimal form, `127.0.0.1`.
    public var description: String {
        "\(value >> 24).\((value >> 16) & 0xFF).\((value >> 8) & 0xFF).\(value & 0xFF)"
    }

    /// Whether a host (already in ASCII) must be read as an IPv4 address: its last label, ignoring
    /// one trailing dot, is a decimal number or a `0x` hexadecimal number (WHATWG "ends in a number").
    static func hostEndsInNumber(_ host: String) -> Bool {
        var bytes = host.utf8[...]
        if bytes.last == UInt8(ascii: ".") {
            bytes = bytes.dropLast()
            if bytes.isEmpty { return false }
        }
        let last = bytes.lastIndex(of: UInt8(ascii: ".")).map { bytes[bytes.index(after: $0)...] } ?? bytes
        guard !last.isEmpty else { return false }
        if last.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) { return true }
        guard last.count >= 2, last.first == UInt8(ascii: "0") else { return false }
        let marker = last[last.index(after: last.startIndex)]
        return (marker == UInt8(ascii: "x") || marker == UInt8(ascii: "X")) && last.dropFirst(2).allSatisfy(\.isHexDigit)
    }

    /// Reads `host` with the WHATWG IPv4 parser; `nil` when it is not a valid address.
    static func parse(_ host: String) -> IPv4Address? {
        var parts = host.split(separator: ".", omittingEmptySubsequences: false)
        if parts.last?.isEmpty == true, parts.count > 1 { parts.removeLast() }
        guard (1...4).contains(parts.count) else { return nil }
        var numbers: [UInt64] = []
        for part in parts {
            guard let number = parseNumber(part) else { return nil }
            numbers.append(number)
        }
        for number in numbers.dropLast() where number > 255 { return nil }
        guard let last = numbers.last, last < UInt64(1) << (8 * (5 - numbers.count)) else { return nil }
        var address = last
        for (index, number) in numbers.dropLast().enumerated() {
            address += number << (8 * (3 - index))
        }
        return IPv4Address(value: UInt32(address))
    }

    private static func parseNumber(_ part: Substring) -> UInt64? {
        guard !part.isEmpty else { return nil }
        var digits = part.utf8[...]
        var radix: UInt64 = 10
        if digits.count >= 2, digits.first == UInt8(ascii: "0"),
           digits.dropFirst().first == UInt8(ascii: "x") || digits.dropFirst().first == UInt8(ascii: "X") {
            digits = digits.dropFirst(2)
            radix = 16
        } else if digits.count >= 2, digits.first == UInt8(ascii: "0") {
            digits = digits.dropFirst()
            radix = 8
        }
        var value: UInt64 = 0
        for byte in digits {
            guard let digit = byte.hexDigitValue, UInt64(digit) < radix else { return nil }
            value = value * radix + UInt64(digit)
            // Anything above 2^32 is already invalid; stop before the arithmetic can overflow.
            guard value <= UInt64(UInt32.max) + 1 else { return nil }
        }
        return value
    }
}
