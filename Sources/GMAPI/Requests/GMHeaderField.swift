/// One HTTP header: a name and a value, as given.
public struct GMHeaderField: Sendable, Hashable {
    /// The name as written (compared without regard to case).
    public var name: String
    /// The value.
    public var value: String

    /// A header.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// RFC 9110's `tchar`: the bytes a method or header name may hold.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}
