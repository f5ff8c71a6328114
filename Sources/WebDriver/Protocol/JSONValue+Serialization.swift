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
        output += "\""
        // Runs of characters that need no escape are copied whole: a request carries bodies of
        // tens of kilobytes.
        let scalars = value.unicodeScalars
        var runStart = scalars.startIndex
        var index = scalars.startIndex
        while index < scalars.endIndex {
            let scalar = scalars[index]
            let escape: String?
            switch scalar {
            case "\"": escape = "\\\""
            case "\\": escape = "\\\\"
            case "\n": escape = "\\n"
            case "\r": escape = "\\r"
            case "\t": escape = "\\t"
            default: escape = needsTerminalEscape(scalar) ? String(format: "\\u%04x", scalar.value) : nil
            }
            if let escape {
                output += String(scalars[runStart..<index])
                output += escape
                runStart = scalars.index(after: index)
            }
            index = scalars.index(after: index)
        }
        output += String(scalars[runStart..<scalars.endIndex])
        output += "\""
    }
}
