import Foundation

extension URLRegex {
    /// A match pattern for what a refused regular expression most likely means, or `nil` when
    /// there is no safe guess: `/https?:\/\/.*example\.com/` suggests `*://*.example.com/*`.
    ///
    /// The scheme becomes `*` when it allows both http and https; a wildcard before the host's
    /// first literal part becomes `*.`; `\.` and a bare `.` between host letters both become a dot
    /// (an author who wrote `www.example.com` meant dots). The guess is offered only if it parses.
    var suggestedMatchPattern: String? {
        var text = Substring(source)
        if text.hasPrefix("^") { text = text.dropFirst() }
        let unescapedSlashes = text.replacingOccurrences(of: "\\/", with: "/")
        guard let separator = unescapedSlashes.range(of: "://") else { return nil }
        let schemePart = unescapedSlashes[..<separator.lowerBound].lowercased()
        let scheme: String
        if schemePart.contains("https"), schemePart.contains("?") || schemePart.contains("|") || schemePart.contains("http)") || schemePart.contains("*") {
            scheme = "*"
        } else if schemePart.hasSuffix("https") {
            scheme = "https"
        } else if schemePart.hasSuffix("http") {
            scheme = "http"
        } else {
            scheme = "*"
        }
        var host = Substring(unescapedSlashes[separator.upperBound...])
        if let end = host.firstIndex(where: { "/:?#$".contains($0) }) { host = host[..<end] }
        var wildcard = false
        while let stripped = Self.leadingWildcardStripped(host) {
            host = stripped
            wildcard = true
        }
        let literal = host.replacingOccurrences(of: "\\.", with: ".")
        guard !literal.isEmpty, literal.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" }) else { return nil }
        let trimmed = literal.drop { $0 == "." }
        let candidate = "\(scheme)://\(wildcard ? "*." : "")\(trimmed.lowercased())/*"
        return (try? MatchPattern.parse(candidate, suggestingFixes: false)) != nil ? candidate : nil
    }

    /// The host text without one leading wildcard (`.*`, `[^/]+\.`, `(www\.)?`, ...), or `nil`.
    private static func leadingWildcardStripped(_ host: Substring) -> Substring? {
        if host.hasPrefix("("), let close = host.firstIndex(of: ")") {
            var after = host[host.index(after: close)...]
            guard let quantifier = after.first, "?*+".contains(quantifier) else { return nil }
            after = after.dropFirst()
            return after.hasPrefix("?") ? after.dropFirst() : after
        }
        if host.hasPrefix("["), let close = host.firstIndex(of: "]") {
            let after = host[host.index(after: close)...]
            guard let quantifier = after.first, "?*+".contains(quantifier) else { return nil }
            return after.dropFirst()
        }
        for wildcard in [".*", ".+", "\\w+", "\\w*"] where host.hasPrefix(wildcard) {
            return host.dropFirst(wildcard.count)
        }
        return nil
    }
}
