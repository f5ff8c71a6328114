extension MatchPattern {
    /// A valid pattern that is probably what `text` meant, or `nil` when there is no safe guess.
    ///
    /// The repairs are the usual mistakes: no scheme (`example.com/*`), a scheme wildcard
    /// (`http*://`), no path (`https://example.com`), a wildcard top-level domain
    /// (`www.google.*` becomes `*://*.google.com/*`), an empty port, userinfo, a shorthand IPv4
    /// address, a fragment or a backslash in the path. The guess is only offered if it parses.
    static func suggestion(for written: String) -> String? {
        let text = trimmedSpaces(written)
        guard !text.isEmpty, !text.unicodeScalars.contains(where: { $0.properties.isWhitespace }) else { return nil }
        var scheme = "*"
        var rest = Substring(text)
        if let separator = text.range(of: "://") {
            let written = text[..<separator.lowerBound].lowercased()
            scheme = written.hasPrefix("http") && written.contains("*") ? "*" : (written.isEmpty ? "*" : written)
            rest = text[separator.upperBound...]
        } else {
            // Without a scheme, only something that looks like a host is worth completing.
            let hostPart = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)[0]
            guard hostPart.contains(".") || hostPart == "localhost" || hostPart.hasPrefix("[") else { return nil }
        }
        // Browsers read `\` as `/` in http, https and file URLs.
        rest = Substring(String(rest).replacingBackslashes())
        if scheme == "file" {
            let path = rest.drop(while: { $0 != "/" })
            return checked("file://" + (path.isEmpty ? "/*" : String(path)), against: text)
        }
        let pathStart = rest.firstIndex(of: "/")
        var authority = pathStart.map { rest[..<$0] } ?? rest
        var path = pathStart.map { String(rest[$0...]) } ?? "/*"
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }

        var host = String(authority)
        var port: String?
        if !authority.hasPrefix("["), let colon = authority.lastIndex(of: ":") {
            host = String(authority[..<colon])
            let written = authority[authority.index(after: colon)...]
            port = written.isEmpty ? nil : String(written)
        } else if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            host = String(authority[...close])
            let after = authority[authority.index(after: close)...]
            port = after.count > 1 ? String(after.dropFirst()) : nil
        }
        if host.hasSuffix(".*") {
            host = String(host.dropLast(2)) + ".com"
            if host.hasPrefix("www.") { host = "*." + host.dropFirst(4) }
        }
        if !host.contains("*"), IPv4Address.hostEndsInNumber(host), let address = IPv4Address.parse(host) {
            host = address.description
        }
        if let hash = path.firstIndex(of: "#") { path = String(path[..<hash]) }
        path = percentEncodingNonASCII(path)
        if path.isEmpty { path = "/*" }
        let portText = port.map { ":" + $0 } ?? ""
        return checked("\(scheme)://\(host)\(portText)\(path)", against: text)
    }

    private static func checked(_ candidate: String, against original: String) -> String? {
        guard candidate != original, (try? parse(candidate, suggestingFixes: false)) != nil else { return nil }
        return candidate
    }

    private static func percentEncodingNonASCII(_ path: String) -> String {
        var output = ""
        for byte in path.utf8 {
            if byte >= 0x80 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">") {
                let hex = String(byte, radix: 16, uppercase: true)
                output += "%" + (hex.count == 1 ? "0" + hex : hex)
            } else {
                output.unicodeScalars.append(Unicode.Scalar(byte))
            }
        }
        return output
    }
}

extension String {
    fileprivate func replacingBackslashes() -> String {
        String(map { $0 == "\\" ? "/" : $0 })
    }
}
