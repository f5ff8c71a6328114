extension Array where Element == UInt8 {
    /// Lowercase hex.
    var hexString: String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(count * 2)
        for byte in self {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The SHA-256 of these bytes in lowercase hex: the name of their file in the cache.
    var sha256Hex: String { IntegrityCheck.Algorithm.sha256.digest(self).hexString }
}
