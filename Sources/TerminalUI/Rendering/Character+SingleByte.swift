extension Character {
    /// The character's byte when it is one byte of UTF-8 (ASCII), else `nil`.
    ///
    /// The editor keeps its lines as characters and asks this of every character it draws,
    /// lexes or searches. `asciiValue` answers the same for everything but "\r\n" (which it
    /// calls a line feed), but goes through the character's scalars and costs many times as much,
    /// which showed as a large share of a frame.
    @inline(__always)
    var singleByte: UInt8? {
        let utf8 = self.utf8
        return utf8.count == 1 ? utf8.first : nil
    }
}
