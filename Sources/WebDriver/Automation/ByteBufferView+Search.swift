import NIOCore

extension ByteBufferView {
    /// Whether `pattern` occurs in these bytes, found by a scan of the buffer's memory.
    ///
    /// The relay asks this of every message the browser sends, on the path of every reply, and the
    /// standard library's `firstRange(of:)` is generic over the collection: unspecialized here, it
    /// looks up type metadata at every step and took most of the relay's processor time.
    func contains(bytes pattern: [UInt8]) -> Bool {
        withContiguousStorageIfAvailable { Self.search($0, for: pattern) }
            ?? Array(self).withUnsafeBufferPointer { Self.search($0, for: pattern) }
    }

    private static func search(_ haystack: UnsafeBufferPointer<UInt8>, for pattern: [UInt8]) -> Bool {
        guard let first = pattern.first else { return true }
        return pattern.withUnsafeBufferPointer { needle in
            guard haystack.count >= needle.count else { return false }
            var index = 0
            let last = haystack.count - needle.count
            while index <= last {
                if haystack[index] == first,
                   UnsafeBufferPointer(rebasing: haystack[index..<(index + needle.count)]).elementsEqual(needle) {
                    return true
                }
                index += 1
            }
            return false
        }
    }
}
