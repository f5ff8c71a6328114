import CZlib

/// The two zlib calls a zip archive needs: raw inflate of a deflated entry, and CRC-32.
enum Inflate {
    /// Inflates a raw deflate stream (a zip entry's data, with no zlib header) that must come to
    /// exactly `size` bytes: a stream that ends early, runs on, or is not deflate is refused.
    ///
    /// - Parameter name: The entry's name, for the error.
    static func raw(_ data: ArraySlice<UInt8>, size: Int, name: String) throws(ZipError) -> [UInt8] {
        var stream = z_stream()
        guard CZlib_inflateInit2(&stream, -MAX_WBITS) == Z_OK else {
            throw .damagedEntry(name: name, reason: "zlib could not start inflating it")
        }
        defer { inflateEnd(&stream) }
        // One byte more than declared: a stream that fills it is longer than its entry says.
        var output = [UInt8](repeating: 0, count: size + 1)
        var input = Array(data)
        let status = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.next_in = source.baseAddress
                stream.avail_in = uInt(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = uInt(target.count)
                return inflate(&stream, Z_FINISH)
            }
        }
        let produced = size + 1 - Int(stream.avail_out)
        switch status {
        case Z_STREAM_END where produced == size:
            output.removeLast()
            return output
        case Z_STREAM_END:
            throw .damagedEntry(name: name, reason: "it inflates to \(produced) bytes, not the \(size) it declares")
        case Z_BUF_ERROR where stream.avail_out == 0, Z_OK where stream.avail_out == 0:
            throw .damagedEntry(name: name, reason: "it inflates to more than the \(size) bytes it declares")
        case Z_BUF_ERROR, Z_OK:
            throw .damagedEntry(name: name, reason: "its deflated data is cut short")
        default:
            let detail = stream.msg.map { String(cString: $0) } ?? String(cString: zError(status))
            throw .damagedEntry(name: name, reason: "its deflated data is not valid (\(detail))")
        }
    }

    /// The CRC-32 of `bytes`, as zip archives record it.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { buffer in
            UInt32(truncatingIfNeeded: CZlib.crc32(0, buffer.baseAddress, uInt(buffer.count)))
        }
    }
}
