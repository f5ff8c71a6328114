/// Appends values to a byte buffer in the library index's layout: unsigned numbers as LEB128
/// varints, signed ones zigzag-encoded, strings as a length and their UTF-8.
struct BinaryWriter {
    private(set) var bytes: [UInt8] = []

    mutating func write(_ value: UInt64) {
        var remaining = value
        while remaining >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: remaining) | 0x80)
            remaining >>= 7
        }
        bytes.append(UInt8(remaining))
    }

    mutating func write(_ value: Int) {
        let signed = Int64(value)
        write(UInt64(bitPattern: (signed << 1) ^ (signed >> 63)))
    }

    mutating func write(_ value: Int64) {
        write(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    mutating func write(_ value: Bool) {
        bytes.append(value ? 1 : 0)
    }

    mutating func write(tag: UInt8) {
        bytes.append(tag)
    }

    mutating func write(_ text: String) {
        write(UInt64(text.utf8.count))
        bytes.append(contentsOf: text.utf8)
    }

    mutating func write(_ text: String?) {
        write(text != nil)
        if let text { write(text) }
    }

    mutating func write(_ value: Int?) {
        write(value != nil)
        if let value { write(value) }
    }

    mutating func write<Element>(_ elements: [Element], _ each: (inout BinaryWriter, Element) -> Void) {
        write(UInt64(elements.count))
        for element in elements { each(&self, element) }
    }

    mutating func append(raw: [UInt8]) {
        bytes.append(contentsOf: raw)
    }
}

/// Reads what ``BinaryWriter`` wrote; every read checks the bounds and throws on anything that
/// does not fit, so a truncated or corrupt index is noticed, never misread.
struct BinaryReader {
    struct Corrupt: Error {}

    private let bytes: UnsafeBufferPointer<UInt8>
    private(set) var position: Int
    /// Expressions compiled so far, by text: a library repeats the same `@exclude /.../` in many
    /// scripts, and one compiled expression serves them all.
    var compiledExpressions: [String: URLRegex] = [:]

    init(_ bytes: UnsafeBufferPointer<UInt8>, from position: Int = 0) {
        self.bytes = bytes
        self.position = position
    }

    var isAtEnd: Bool { position == bytes.count }

    mutating func readUnsigned() throws(Corrupt) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard position < bytes.count, shift < 64 else { throw Corrupt() }
            let byte = bytes[position]
            position += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
    }

    mutating func readInt64() throws(Corrupt) -> Int64 {
        let raw = try readUnsigned()
        return Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))
    }

    mutating func readInt() throws(Corrupt) -> Int {
        let value = try readInt64()
        guard let int = Int(exactly: value) else { throw Corrupt() }
        return int
    }

    /// A count of things to read next, bounded by what is left so a corrupt count cannot make
    /// the reader reserve absurd amounts of memory.
    mutating func readCount() throws(Corrupt) -> Int {
        let count = try readUnsigned()
        guard count <= UInt64(bytes.count - position) else { throw Corrupt() }
        return Int(count)
    }

    mutating func readTag() throws(Corrupt) -> UInt8 {
        guard position < bytes.count else { throw Corrupt() }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func readBool() throws(Corrupt) -> Bool {
        switch try readTag() {
        case 0: return false
        case 1: return true
        default: throw Corrupt()
        }
    }

    mutating func readString() throws(Corrupt) -> String {
        let count = try readCount()
        let slice = UnsafeBufferPointer(rebasing: bytes[position..<(position + count)])
        position += count
        // The whole index is checksummed before it is read, so these bytes are what was written.
        return String(decoding: slice, as: UTF8.self)
    }

    mutating func readOptionalString() throws(Corrupt) -> String? {
        try readBool() ? try readString() : nil
    }

    mutating func readOptionalInt() throws(Corrupt) -> Int? {
        try readBool() ? try readInt() : nil
    }

    mutating func readArray<Element>(_ each: (inout BinaryReader) throws(Corrupt) -> Element) throws(Corrupt) -> [Element] {
        let count = try readCount()
        var elements: [Element] = []
        elements.reserveCapacity(count)
        for _ in 0..<count { elements.append(try each(&self)) }
        return elements
    }
}
