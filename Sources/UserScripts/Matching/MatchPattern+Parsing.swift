extension MatchPattern {
    /// Compiles a pattern, refusing anything outside the grammar with the reason.
    ///
    /// `suggestingFixes` is off when the suggestion finder itself checks a candidate, so that the
    /// two never call each other without end.
    static func parse(_ written: String, suggestingFixes: Bool) throws(MatchPatternError) -> MatchPattern {
        let text = trimmedSpaces(written)
        func refuse(_ reason: String, suggestion: String? = nil) -> MatchPatternError {
            let fix = suggestion ?? (suggestingFixes ? Self.suggestion(for: text) : nil)
            return MatchPatternError(pattern: text, reason: reason, suggestion: fix == text ? nil : fix)
        }
        guard !text.isEmpty else { throw refuse("it is empty") }
        if text == "<all_urls>" { return .allURLs(text: text) }
        if text.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F || $0.properties.isWhitespace }) {
            throw refuse("it contains a space or a control character")
        }
        guard let separator = text.range(of: "://") else {
            throw refuse("it has no scheme: a match pattern starts with `*://`, `http://`, `https://` or `file://`")
        }
        let schemeText = text[..<separator.lowerBound].lowercased()
        let scheme: SchemeRule
        switch schemeText {
        case "*": scheme = .httpOrHTTPS
        case "http": scheme = .exactly(.http)
        case "https": scheme = .exactly(.https)
        case "file": scheme = .exactly(.file)
        case "": throw refuse("the scheme before `://` is missing")
        case let other where other.contains("*"):
            throw refuse("`*` may only stand alone as the scheme (`*://` means http and https)")
        case let other:
            throw refuse("scripts run only on http, https and file pages, not on `\(other):` pages")
        }
        let rest = text[separator.upperBound...]
        guard let pathStart = rest.firstIndex(of: "/") else {
            throw refuse("it has no path: add `/*` after the host to cover the whole site")
        }
        let authority = rest[..<pathStart]
        let pathText = String(rest[pathStart...])
        if let problem = pathProblem(pathText) { throw refuse(problem) }

        if case .exactly(.file) = scheme {
            guard authority.isEmpty || authority.lowercased() == "localhost" else {
                throw refuse("a file pattern has no host: write `file:///` followed by the path")
            }
            return MatchPattern(text: text, scheme: scheme, host: .exactly(.empty), port: nil, path: PathGlob(pathText))
        }
        guard !authority.contains("@") else {
            throw refuse("a pattern names a host, not a user: remove the part up to `@`")
        }
        let (hostText, portText) = try splitHostAndPort(authority, refuse: refuse)
        guard !hostText.isEmpty else { throw refuse("the host is missing") }
        let port = try parsePort(portText, refuse: refuse)
        let host = try parseHost(hostText, refuse: refuse)
        return MatchPattern(text: text, scheme: scheme, host: host, port: port, path: PathGlob(pathText))
    }

    private static func splitHostAndPort(
        _ authority: Substring,
        refuse: (String, String?) -> MatchPatternError
    ) throws(MatchPatternError) -> (Substring, Substring?) {
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else {
                throw refuse("the IPv6 address is not closed with `]`", nil)
            }
            let host = authority[...close]
            let after = authority[authority.index(after: close)...]
            if after.isEmpty { return (host, nil) }
            guard after.hasPrefix(":") else { throw refuse("unexpected text after the IPv6 address", nil) }
            let port = after.dropFirst()
            guard !port.contains(":") else { throw refuse("it has more than one port", nil) }
            return (host, port)
        }
        let parts = authority.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count <= 2 else { throw refuse("it has more than one port", nil) }
        return (parts[0], parts.count == 2 ? parts[1] : nil)
    }

    private static func parsePort(
        _ text: Substring?,
        refuse: (String, String?) -> MatchPatternError
    ) throws(MatchPatternError) -> Int? {
        guard let text else { return nil }
        if text == "*" { return nil }
        guard !text.isEmpty else { throw refuse("the port after `:` is empty", nil) }
        guard text.utf8.count <= 5, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
              let value = Int(text), (1...65535).contains(value) else {
            throw refuse("the port must be a number from 1 to 65535, or `*` for any port", nil)
        }
        return value
    }

    private static func parseHost(
        _ text: Substring,
        refuse: (String, String?) -> MatchPatternError
    ) throws(MatchPatternError) -> HostRule {
        if text == "*" { return .any }
        if text.hasPrefix("*.") {
            let domain = text.dropFirst(2)
            guard !domain.contains("*") else { throw refuse(wildcardReason(text), nil) }
            guard !domain.isEmpty, domain != "." else { throw refuse("`*.` must be followed by a domain", nil) }
            return .domainAndSubdomains(try canonicalDomain(domain, refuse: refuse))
        }
        guard !text.contains("*") else { throw refuse(wildcardReason(text), nil) }
        let host: URLHost
        do {
            host = try URLHost.parse(text.utf8)
        } catch {
            throw refuse(hostReason(error), nil)
        }
        switch host {
        case .ipv4(let address):
            // A pattern is read by people: only the dotted-decimal spelling is accepted there.
            guard text == address.description || text == address.description + "." else {
                throw refuse("write the IPv4 address in dotted decimal (`\(address)`)", nil)
            }
        case .domain(let name):
            if let bad = name.unicodeScalars.first(where: { !isPatternHostCharacter($0) }) {
                throw refuse("the host contains `\(bad)`, which a host name in a pattern may not contain", nil)
            }
        case .ipv6, .empty:
            break
        }
        return .exactly(host)
    }

    /// The domain after `*.`, canonicalised like any host but never read as an IP address:
    /// `*.0.0.1` is a valid pattern that matches nothing, because `*.` never applies to addresses.
    private static func canonicalDomain(
        _ text: Substring,
        refuse: (String, String?) -> MatchPatternError
    ) throws(MatchPatternError) -> String {
        let ascii: String
        do {
            ascii = try IDNA.toASCII(String(text))
        } catch {
            throw refuse(hostReason(error), nil)
        }
        let name = ascii.hasSuffix(".") ? String(ascii.dropLast()) : ascii
        guard !URLHost.hasEmptyLabel(name) else {
            throw refuse("the domain after `*.` has an empty label", nil)
        }
        if let bad = name.unicodeScalars.first(where: { !isPatternHostCharacter($0) }) {
            throw refuse("the host contains `\(bad)`, which a host name in a pattern may not contain", nil)
        }
        return name
    }

    /// Letters, digits, `-`, `_` and `.`: what real host names use, once IDNA has made them ASCII.
    private static func isPatternHostCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "0"..."9", "-", "_", ".": true
        default: false
        }
    }

    static func wildcardReason(_ host: Substring) -> String {
        if host.hasSuffix(".*") {
            return "a wildcard top-level domain (`\(host)`) would match look-alike sites in every country; name the domain"
        }
        return "a host wildcard is the whole host (`*`) or a leading `*.`, and `\(host)` is neither"
    }

    private static func hostReason(_ error: URLParseError) -> String {
        switch error {
        case .invalidHost(_, let reason): "the host is not valid: \(reason)"
        default: error.description
        }
    }

    /// Why a pattern path can never match a page's canonical path, or `nil` when it can.
    private static func pathProblem(_ path: String) -> String? {
        if path.contains("#") {
            return "the fragment (`#...`) is dropped before matching, so a pattern cannot name one"
        }
        if path.contains("\\") {
            return "browsers turn `\\` into `/` in paths, so write `/`"
        }
        if path.unicodeScalars.contains(where: { !$0.isASCII || "\"<>".unicodeScalars.contains($0) }) {
            return "the path contains characters that browsers always percent-encode; write them as `%XX`"
        }
        let pathOnly = path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
        let dotSegments: Set<String> = [".", "..", "%2e", ".%2e", "%2e.", "%2e%2e"]
        if pathOnly.split(separator: "/", omittingEmptySubsequences: false).contains(where: { dotSegments.contains($0.lowercased()) }) {
            return "browsers resolve `.` and `..` segments before matching, so a pattern path cannot contain them"
        }
        return nil
    }

    static func trimmedSpaces(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(scalars[first...last])
    }
}
