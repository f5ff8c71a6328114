/// Finds bytes among bytes by a scan of their memory.
///
/// The standard library's `firstRange(of:)` is generic over the collection and, where it is not
/// specialized (for `String.UTF8View` and NIO's `ByteBufferView` it is not), looks up type
/// metadata at every step: tens of nanoseconds a byte, milliseconds over a runtime's body.
public enum ByteSearch {
    /// Where `pattern` first occurs in `bytes`, as an offset from their start; `0` for an empty
    /// pattern, `nil` where it does not occur.
    public static func firstOffset(of pattern: UnsafeBufferPointer<UInt8>, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let first = pattern.first else { return 0 }
        guard bytes.count >= pattern.count else { return nil }
        var index = 0
        let last = bytes.count - pattern.count
        while index <= last {
            if bytes[index] == first, UnsafeBufferPointer(rebasing: bytes[index..<(index + pattern.count)]).elementsEqual(pattern) {
                return index
            }
            index += 1
        }
        return nil
    }

    /// Where `pattern` first occurs in `text`, as an offset into its UTF-8 bytes.
    public static func firstOffset(of pattern: String, in text: String) -> Int? {
        var text = text
        var pattern = pattern
        return text.withUTF8 { bytes in pattern.withUTF8 { firstOffset(of: $0, in: bytes) } }
    }
}
