/// The host of a URL or match pattern in canonical form, so that two hosts are the same site
/// exactly when they compare equal.
///
/// Domains are lowercase ASCII (IDNA labels as `xn--` Punycode) without the one trailing dot a URL
/// may carry; IP addresses are compared by value.
public enum URLHost: Hashable, Sendable, CustomStringConvertible {
    /// A domain name such as `www.example.com` or `xn--bcher-kva.example`.
    case domain(String)
    /// An IPv4 address.
    case ipv4(IPv4Address)
    /// An IPv6 address (written in brackets in URLs).
    case ipv6(IPv6Address)
    /// No host: `file:` URLs on the local machine.
    case empty

    /// The host as it appears in a canonical URL: `example.com`, `127.0.0.1`, `[::1]`, or nothing.
    public var description: String {
        switch self {
        case .domain(let name): name
        case .ipv4(let address): address.description
        case .ipv6(let address): "[\(address)]"
        case .empty: ""
        }
    }

    /// Reads a host exactly as the WHATWG URL parser does for http, https and file URLs:
    /// bracketed IPv6, percent-decoding, domain to ASCII, forbidden code points, IPv4 in any of
    /// its historical spellings. PageScript is stricter in one place: empty labels (`a..b`, or two
    /// trailing dots) are refused instead of kept.
    static func parse(_ raw: some Collection<UInt8>) throws(URLParseError) -> URLHost {
        let bytes = Array(raw)
        let display = String(decoding: bytes, as: UTF8.self)
        guard !bytes.isEmpty else { throw .invalidHost(display, reason: "it is empty") }
        if bytes.first == UInt8(ascii: "[") {
            guard bytes.count >= 2, bytes.last == UInt8(ascii: "]") else {
                throw .invalidHost(display, reason: "an IPv6 address must be closed with `]`")
            }
            guard let address = IPv6Address.parse(bytes.dropFirst().dropLast()) else {
                throw .invalidHost(display, reason: "it is not a valid IPv6 address")
            }
            return .ipv6(address)
        }
        let decoded = String(decoding: percentDecoded(bytes), as: UTF8.self)
        let ascii = try IDNA.toASCII(decoded)
        if let forbidden = ascii.utf8.first(where: isForbiddenInDomain) {
            throw .invalidHost(display, reason: "it contains \(describeByte(forbidden)), which no host name may contain")
        }
        guard !ascii.isEmpty else { throw .invalidHost(display, reason: "it is empty") }
        if IPv4Address.hostEndsInNumber(ascii) {
            guard let address = IPv4Address.parse(ascii) else {
                throw .invalidHost(display, reason: "it ends in a number but is not a valid IPv4 address")
            }
            return .ipv4(address)
        }
        let name = ascii.utf8.last == UInt8(ascii: ".") ? String(ascii.dropLast()) : ascii
        guard !hasEmptyLabel(name) else {
            throw .invalidHost(display, reason: "it has an empty label (two dots in a row)")
        }
        return .domain(name)
    }

    /// The WHATWG "forbidden domain code points": C0 controls, space, `#`, `%`, `/`, `:`, `<`, `>`,
    /// `?`, `@`, `[`, `\`, `]`, `^`, `|` and DEL.
    static func isForbiddenInDomain(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x00...0x20, 0x7F: true
        case UInt8(ascii: "#"), UInt8(ascii: "%"), UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "<"),
             UInt8(ascii: ">"), UInt8(ascii: "?"), UInt8(ascii: "@"), UInt8(ascii: "["), UInt8(ascii: "\\"),
             UInt8(ascii: "]"), UInt8(ascii: "^"), UInt8(ascii: "|"):
            true
        default: false
        }
    }

    /// Whether a domain is empty, starts or ends with a dot, or has two dots in a row.
    static func hasEmptyLabel(_ name: String) -> Bool {
        var previous = UInt8(ascii: ".")
        for byte in name.utf8 {
            if byte == UInt8(ascii: "."), previous == UInt8(ascii: ".") { return true }
            previous = byte
        }
        return previous == UInt8(ascii: ".")
    }

    private static func percentDecoded(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.contains(UInt8(ascii: "%")) else { return bytes }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
               let high = bytes[index + 1].hexDigitValue, let low = bytes[index + 2].hexDigitValue {
                output.append(UInt8(high * 16 + low))
                index += 3
            } else {
                output.append(bytes[index])
                index += 1
            }
        }
        return output
    }

    private static func describeByte(_ byte: UInt8) -> String {
        switch byte {
        case UInt8(ascii: " "): "a space"
        case 0x00..<0x20, 0x7F: "a control character"
        default: "`\(Character(Unicode.Scalar(byte)))`"
        }
    }
}
