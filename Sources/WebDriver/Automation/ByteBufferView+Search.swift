import NIOCore
import SystemSupport

extension ByteBufferView {
    /// Whether `pattern` occurs in these bytes (``ByteSearch``): the relay asks this of every
    /// message the browser sends, on the path of every reply.
    func contains(bytes pattern: [UInt8]) -> Bool {
        pattern.withUnsafeBufferPointer { needle in
            withContiguousStorageIfAvailable { ByteSearch.firstOffset(of: needle, in: $0) != nil }
                ?? Array(self).withUnsafeBufferPointer { ByteSearch.firstOffset(of: needle, in: $0) != nil }
        }
    }
}
