/// How many UTF-8 bytes two texts share at their start and at their end.
///
/// Both counts end on scalar boundaries, and the shared end never overlaps the shared
/// start in either text, so what lies between is exactly what changed.
struct CommonBytes {
    /// The bytes both texts start with.
    let prefix: Int
    /// The bytes both texts end with, after the prefix.
    let suffix: Int

    init(_ old: UnsafeBufferPointer<UInt8>, _ new: UnsafeBufferPointer<UInt8>) {
        let shortest = min(old.count, new.count)
        var prefix = 0
        // Eight bytes at a time while they match, then byte by byte.
        while prefix + 8 <= shortest, Self.word(at: prefix, of: old) == Self.word(at: prefix, of: new) {
            prefix += 8
        }
        while prefix < shortest, old[prefix] == new[prefix] {
            prefix += 1
        }
        // A shared lead byte does not make a shared scalar: back up to a scalar start.
        while prefix > 0, Self.isContinuation(at: prefix, of: old) || Self.isContinuation(at: prefix, of: new) {
            prefix -= 1
        }
        let limit = shortest - prefix
        var suffix = 0
        while suffix + 8 <= limit,
              Self.word(at: old.count - suffix - 8, of: old) == Self.word(at: new.count - suffix - 8, of: new) {
            suffix += 8
        }
        while suffix < limit, old[old.count - suffix - 1] == new[new.count - suffix - 1] {
            suffix += 1
        }
        // The shared end must start on a scalar; its bytes are the same in both texts.
        while suffix > 0, Self.isContinuation(at: old.count - suffix, of: old) {
            suffix -= 1
        }
        self.prefix = prefix
        self.suffix = suffix
    }

    private static func word(at offset: Int, of bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        UnsafeRawBufferPointer(bytes).loadUnaligned(fromByteOffset: offset, as: UInt64.self)
    }

    private static func isContinuation(at offset: Int, of bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        offset < bytes.count && bytes[offset] & 0xC0 == 0x80
    }
}
