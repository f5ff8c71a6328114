import Foundation

extension JSONValue {
    /// This value as compact JSON text that is safe to print on a terminal.
    ///
    /// Besides what JSON requires, every C1 control (U+0080–U+009F), DEL, the line and paragraph
    /// separators, and the bidirectional overrides and isolates are written as `\uXXXX` escapes,
    /// so that text from a hostile page can neither drive the terminal nor disguise itself.
    public var serialized: String {
        var output = ""
        output.reserveCapacity(64)
        write(to: &output)
        return output
    }

    private func write(to output: inout String) {
        switch self {
        case .null: output += "null"
        case let .bool(value): output += value ? "true" : "false"
        case let .integer(value): output += String(value)
        case let .number(value): output += Self.format(value)
        case let .string(value): Self.writeString(value, to: &output)
        case let .array(values):
            output += "["
            for (offset, element) in values.enumerated() {
                if offset > 0 { output += "," }
                element.write(to: &output)
            }
            output += "]"
        case let .object(pairs):
            output += "{"
            for (offset, pair) in pairs.enumerated() {
                if offset > 0 { output += "," }
                Self.writeString(pair.key, to: &output)
                output += ":"
                pair.value.write(to: &output)
            }
            output += "}"
        }
    }

    private static func format(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 1e15 {
            return String(Int64(value))
        }
        return "\(value)"
    }

    /// Whether `scalar` must be escaped for a terminal even though JSON would allow it raw.
    static func needsTerminalEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x2028, 0x2029: true
        case 0x200B...0x200F: true
        case 0x202A...0x202E, 0x2066...0x2069: true
        case 0xFEFF: true
        default: false
        }
    }

    static func writeString(_ value: String, to output: inout String) {
        var value = value
        let escaped = value.withUTF8 { bytes -> String? in
            // Runs of bytes that need no escape are copied whole: a request carries bodies of
            // tens of kilobytes. Bytes below 0x80 are decided here; a non-ASCII character is
            // decoded only to ask whether it is one of the few a terminal must not see raw.
            guard let base = bytes.baseAddress else { return nil }
            var text: [UInt8] = []
            var runStart = 0
            var index = 0
            while index < bytes.count {
                let byte = base[index]
                var escape: StaticString?
                var length = 1
                switch byte {
                case UInt8(ascii: "\""): escape = "\\\""
                case UInt8(ascii: "\\"): escape = "\\\\"
                case UInt8(ascii: "\n"): escape = "\\n"
                case UInt8(ascii: "\r"): escape = "\\r"
                case UInt8(ascii: "\t"): escape = "\\t"
                case 0x20..<0x7F: break
                default:
                    let scalar: Unicode.Scalar
                    (scalar, length) = Self.scalar(at: index, in: bytes)
                    if needsTerminalEscape(scalar) {
                        text.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                        text.append(contentsOf: String(format: "\\u%04x", scalar.value).utf8)
                        runStart = index + length
                    }
                }
                if let escape {
                    text.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                    text.append(contentsOf: UnsafeBufferPointer(start: escape.utf8Start, count: escape.utf8CodeUnitCount))
                    runStart = index + 1
                }
                index += length
            }
            guard runStart > 0 else { return nil }
            text.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
            return String(decoding: text, as: UTF8.self)
        }
        output += "\""
        output += escaped ?? value
        output += "\""
    }

    /// The scalar whose UTF-8 encoding starts at `index` of valid UTF-8 `bytes` (a Swift string's),
    /// and the encoding's length.
    private static func scalar(at index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (Unicode.Scalar, Int) {
        let lead = bytes[index]
        let length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
        var value = length == 1 ? UInt32(lead) : UInt32(lead) & (0xFF >> (length + 1))
        for offset in 1..<length {
            value = value << 6 | UInt32(bytes[index + offset] & 0x3F)
        }
        return (Unicode.Scalar(value) ?? "\u{FFFD}", length)
    }
}
