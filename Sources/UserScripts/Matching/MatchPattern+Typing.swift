extension MatchPattern {
    /// Whether typing on could make `partial` a valid pattern: what a pattern field refuses as it
    /// is typed. Only what no further text can fix is refused (a scheme scripts never run on, a
    /// space, `@` in the host, a `*` inside a host, a fragment, `\` or a character browsers always
    /// percent-encode in the path); what is merely incomplete (`http`, `*://example.com`) is
    /// accepted and reported by ``problem(with:)`` until it is fixed.
    ///
    /// ```swift
    /// MatchPattern.canBecomeValid("https://exa")  // true
    /// MatchPattern.canBecomeValid("ftp")          // false
    /// ```
    public static func canBecomeValid(_ partial: String) -> Bool {
        if partial.isEmpty || (try? MatchPattern(partial)) != nil { return true }
        if partial.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F || $0.properties.isWhitespace }) { return false }
        let lowered = partial.lowercased()
        guard let separator = lowered.range(of: "://") else {
            return ["*://", "http://", "https://", "file://", "<all_urls>"].contains { $0.hasPrefix(lowered) }
        }
        let scheme = lowered[..<separator.lowerBound]
        guard ["*", "http", "https", "file"].contains(scheme) else { return false }
        let rest = partial[separator.upperBound...]
        let authority = rest.prefix { $0 != "/" }
        let path = rest.dropFirst(authority.count)
        if scheme == "file" {
            guard "localhost".hasPrefix(authority.lowercased()) else { return false }
        } else {
            guard !authority.contains("@"), !authority.contains("#"), !authority.contains("\\"), !authority.contains("?") else { return false }
            let host = authority.hasPrefix("[") ? authority.prefix { $0 != "]" } : authority.prefix { $0 != ":" }
            if let star = host.firstIndex(of: "*") {
                // `*` alone, or `*.` and a domain.
                guard star == host.startIndex, host.count == 1 || host.dropFirst().first == ".",
                      !host.dropFirst().contains("*") else { return false }
            }
        }
        return !path.contains("#") && !path.contains("\\")
            && !path.unicodeScalars.contains { !$0.isASCII || "\"<>".unicodeScalars.contains($0) }
    }

    /// Why `pattern` is not a valid match pattern, as a form shows it; `nil` when it is.
    public static func problem(with pattern: String) -> String? {
        do {
            _ = try MatchPattern(pattern)
            return nil
        } catch {
            return "\(error)"
        }
    }
}
