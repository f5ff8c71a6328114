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
        guard let separator = text.range(of: ":\\/\\/") ?? text.range(of: "://") else { return nil }
        let schemePart = text[..<separator.lowerBound].lowercased()
        let optional = schemePart.contains { "?|[*".contains($0) }
        let scheme: String
        if schemePart.contains("https") {
            scheme = optional ? "*" : "https"
        } else if schemePart.contains("http") {
            scheme = optional ? "*" : "http"
        } else if schemePart.hasSuffix("*") || schemePart.hasSuffix("+") {
            scheme = "*"
        } else {
            return nil
        }
        var host = Self.hostPart(text[separator.upperBound...])
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

    /// The expression's text up to where its host ends: `/`, `\/`, `:`, `$`, `#` or `\?` outside a
    /// character class, with a group opened just before that point left out.
    private static func hostPart(_ text: Substring) -> Substring {
        var index = text.startIndex
        var inClass = false
        while index < text.endIndex {
            let character = text[index]
            let next = text.index(after: index)
            if character == "\\" {
                if !inClass, next < text.endIndex, "/?".contains(text[next]) { break }
                index = next < text.endIndex ? text.index(after: next) : next
                continue
            }
            if inClass {
                if character == "]" { inClass = false }
            } else if character == "[" {
                inClass = true
            } else if "/$#".contains(character) {
                break
            } else if character == ":", !text[..<index].hasSuffix("(?") {
                break
            }
            index = next
        }
        var host = text[..<index]
        while host.hasSuffix("(") { host = host.dropLast() }
        return host
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
