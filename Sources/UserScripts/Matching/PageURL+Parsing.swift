/// The URL parser behind ``PageURL``: the WHATWG basic URL parser, without a base URL, for the
/// three special schemes PageScript runs on.
///
/// It works on UTF-8 bytes so that no platform URL type can reinterpret what a browser would see.
/// Foundation's `URL`, for one, reads `http://evil.com\@bank.com/` as being on `bank.com` while
/// every browser goes to `evil.com`.
extension PageURL {
    private static let slash = UInt8(ascii: "/")
    private static let backslash = UInt8(ascii: "\\")
    private static let question = UInt8(ascii: "?")
    private static let hash = UInt8(ascii: "#")

    static func parse(_ text: String) throws(URLParseError) -> PageURL {
        let input = cleaned(text)
        let (scheme, afterScheme) = try readScheme(input)
        switch scheme {
        case .http, .https:
            return try parseHTTP(input, scheme: scheme, from: afterScheme)
        case .file:
            return try parseFile(input, from: afterScheme)
        }
    }

    /// Leading and trailing C0 controls and spaces are trimmed, and every tab, line feed and
    /// carriage return is removed, wherever it is: `https://ba\nnk.com/` is `https://bank.com/`.
    private static func cleaned(_ text: String) -> [UInt8] {
        let bytes = Array(text.utf8)
        var start = 0
        var end = bytes.count
        while start < end, bytes[start] <= 0x20 { start += 1 }
        while end > start, bytes[end - 1] <= 0x20 { end -= 1 }
        return bytes[start..<end].filter { $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }
    }

    private static func readScheme(_ input: [UInt8]) throws(URLParseError) -> (URLScheme, Int) {
        guard let first = input.first, isASCIILetter(first) else { throw .missingScheme }
        var index = 1
        while index < input.count, isSchemeCharacter(input[index]) { index += 1 }
        guard index < input.count, input[index] == UInt8(ascii: ":") else { throw .missingScheme }
        let name = String(decoding: input[0..<index].map(IDNA.asciiLowercased), as: UTF8.self)
        guard let scheme = URLScheme(rawValue: name) else { throw .unsupportedScheme(name) }
        return (scheme, index + 1)
    }

    private static func parseHTTP(_ input: [UInt8], scheme: URLScheme, from start: Int) throws(URLParseError) -> PageURL {
        var index = start
        // Browsers skip any run of slashes and backslashes after `http:`: `http:\\/x` is on `x`.
        while index < input.count, input[index] == slash || input[index] == backslash { index += 1 }
        let authorityStart = index
        while index < input.count, !isAuthorityEnd(input[index]) { index += 1 }
        var authority = input[authorityStart..<index]
        // Only the text after the last `@` is the host; the rest is userinfo, never part of the site.
        if let at = authority.lastIndex(of: UInt8(ascii: "@")) {
            authority = authority[(at + 1)...]
        }
        let (hostBytes, portBytes) = splitPort(authority)
        let host = try URLHost.parse(hostBytes)
        let port = try readPort(portBytes)
        let (path, query, fragment) = readPathAndQuery(input, from: index, scheme: scheme)
        return PageURL(scheme: scheme, host: host, port: port, path: path, query: query, fragment: fragment)
    }

    private static func parseFile(_ input: [UInt8], from start: Int) throws(URLParseError) -> PageURL {
        var index = start
        var host = URLHost.empty
        let hasAuthority = index + 1 < input.count && isSlash(input[index]) && isSlash(input[index + 1])
        if hasAuthority {
            index += 2
            let hostStart = index
            while index < input.count, !isAuthorityEnd(input[index]) { index += 1 }
            let hostBytes = input[hostStart..<index]
            if isWindowsDriveLetter(hostBytes) {
                // `file://C:/x` has no host: the drive letter is the first path segment.
                index = hostStart
            } else if !hostBytes.isEmpty {
                let parsed = try URLHost.parse(hostBytes)
                host = parsed == .domain("localhost") ? .empty : parsed
            }
        }
        let (path, query, fragment) = readPathAndQuery(input, from: index, scheme: .file)
        return PageURL(scheme: .file, host: host, port: nil, path: path, query: query, fragment: fragment)
    }

    /// Splits `host:port`, where a `:` inside `[...]` belongs to an IPv6 address.
    private static func splitPort(_ authority: ArraySlice<UInt8>) -> (ArraySlice<UInt8>, ArraySlice<UInt8>?) {
        var insideBrackets = false
        for index in authority.indices {
            switch authority[index] {
            case UInt8(ascii: "["): insideBrackets = true
            case UInt8(ascii: "]"): insideBrackets = false
            case UInt8(ascii: ":") where !insideBrackets:
                return (authority[..<index], authority[(index + 1)...])
            default: break
            }
        }
        return (authority, nil)
    }

    private static func readPort(_ bytes: ArraySlice<UInt8>?) throws(URLParseError) -> Int? {
        guard let bytes, !bytes.isEmpty else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        var value = 0
        for byte in bytes {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { throw .invalidPort(text) }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
            guard value <= 65535 else { throw .invalidPort(text) }
        }
        return value
    }

    /// The path (dot segments resolved, `\` read as `/`, percent-encoded like a browser), the
    /// query and the fragment.
    private static func readPathAndQuery(_ input: [UInt8], from start: Int, scheme: URLScheme) -> (String, String?, String?) {
        var index = start
        if index < input.count, isSlash(input[index]) { index += 1 }
        var segments: [[UInt8]] = []
        var buffer: [UInt8] = []
        while true {
            let current: UInt8? = index < input.count ? input[index] : nil
            let endsPath = current == nil || current == question || current == hash
            if endsPath || isSlash(current ?? 0) {
                let isLast = endsPath
                if isDoubleDotSegment(buffer) {
                    if !(scheme == .file && segments.count == 1 && isNormalizedWindowsDriveLetter(segments[0])) {
                        _ = segments.popLast()
                    }
                    if isLast { segments.append([]) }
                } else if isSingleDotSegment(buffer) {
                    if isLast { segments.append([]) }
                } else {
                    if scheme == .file, segments.isEmpty, isWindowsDriveLetter(buffer[...]) {
                        buffer[1] = UInt8(ascii: ":")
                    }
                    segments.append(buffer)
                }
                buffer.removeAll(keepingCapacity: true)
                if endsPath { break }
            } else if let current {
                appendPercentEncoded(current, to: &buffer, encodeIf: isInPathEncodeSet)
            }
            index += 1
        }
        var path: [UInt8] = []
        for segment in segments {
            path.append(slash)
            path.append(contentsOf: segment)
        }
        if path.isEmpty { path = [slash] }

        var query: String?
        if index < input.count, input[index] == question {
            index += 1
            var bytes: [UInt8] = []
            while index < input.count, input[index] != hash {
                appendPercentEncoded(input[index], to: &bytes, encodeIf: isInSpecialQueryEncodeSet)
                index += 1
            }
            query = String(decoding: bytes, as: UTF8.self)
        }
        var fragment: String?
        if index < input.count, input[index] == hash {
            var bytes: [UInt8] = []
            for byte in input[(index + 1)...] {
                appendPercentEncoded(byte, to: &bytes, encodeIf: isInFragmentEncodeSet)
            }
            fragment = String(decoding: bytes, as: UTF8.self)
        }
        return (String(decoding: path, as: UTF8.self), query, fragment)
    }

    /// The fragment percent-encode set: controls, space, `"`, `<`, `>`, `` ` ``, non-ASCII.
    private static func isInFragmentEncodeSet(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x00...0x20, 0x7F...0xFF: true
        case UInt8(ascii: "\""), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "`"): true
        default: false
        }
    }

    private static func appendPercentEncoded(_ byte: UInt8, to buffer: inout [UInt8], encodeIf shouldEncode: (UInt8) -> Bool) {
        guard shouldEncode(byte) else {
            buffer.append(byte)
            return
        }
        let digits = Array("0123456789ABCDEF".utf8)
        buffer.append(UInt8(ascii: "%"))
        buffer.append(digits[Int(byte >> 4)])
        buffer.append(digits[Int(byte & 0x0F)])
    }

    /// The bytes every browser percent-encodes in a path: controls, space, `"`, `#`, `<`, `>`, `?`,
    /// `` ` ``, `{`, `}` and everything outside ASCII.
    private static func isInPathEncodeSet(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x00...0x20, 0x7F...0xFF: true
        case UInt8(ascii: "\""), UInt8(ascii: "#"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "?"),
             UInt8(ascii: "`"), UInt8(ascii: "{"), UInt8(ascii: "}"):
            true
        default: false
        }
    }

    /// The special-query percent-encode set: controls, space, `"`, `#`, `<`, `>`, `'`, non-ASCII.
    private static func isInSpecialQueryEncodeSet(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x00...0x20, 0x7F...0xFF: true
        case UInt8(ascii: "\""), UInt8(ascii: "#"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "'"): true
        default: false
        }
    }

    private static func isSingleDotSegment(_ segment: [UInt8]) -> Bool {
        let lowered = segment.map(IDNA.asciiLowercased)
        return lowered == Array(".".utf8) || lowered == Array("%2e".utf8)
    }

    private static func isDoubleDotSegment(_ segment: [UInt8]) -> Bool {
        switch segment.map(IDNA.asciiLowercased) {
        case Array("..".utf8), Array(".%2e".utf8), Array("%2e.".utf8), Array("%2e%2e".utf8): true
        default: false
        }
    }

    private static func isWindowsDriveLetter(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.count == 2 && isASCIILetter(bytes[bytes.startIndex])
            && (bytes[bytes.startIndex + 1] == UInt8(ascii: ":") || bytes[bytes.startIndex + 1] == UInt8(ascii: "|"))
    }

    private static func isNormalizedWindowsDriveLetter(_ bytes: [UInt8]) -> Bool {
        bytes.count == 2 && isASCIILetter(bytes[0]) && bytes[1] == UInt8(ascii: ":")
    }

    private static func isAuthorityEnd(_ byte: UInt8) -> Bool {
        byte == slash || byte == backslash || byte == question || byte == hash
    }

    private static func isSlash(_ byte: UInt8) -> Bool {
        byte == slash || byte == backslash
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
    }

    private static func isSchemeCharacter(_ byte: UInt8) -> Bool {
        isASCIILetter(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }
}
