import Foundation

/// Converts the glob rules of `@include` into strict patterns, where that conversion is exact,
/// and refuses them otherwise (rule 10 of the matching rules).
///
/// Tampermonkey, Violentmonkey and Greasemonkey match such a glob against the whole URL string, so
/// its `*` runs across the scheme, host and path: `*://bank.com/*` also matches
/// `https://evil.com/?://bank.com/`. PageScript reads each `*` within the URL component it is
/// written in, which is what the author meant, and then requires an exact match-pattern equivalent:
///
/// - `*` alone is `<all_urls>`; a `*` that is all there is after `://` (`http://*`, `*://*`)
///   claims every page of its schemes, as `scheme://*/*` does.
/// - A scheme glob becomes the set of schemes it matches among http, https and file.
/// - A host is `*`, `*.` followed by a domain, or a literal host; `*bank.com`, `www.bank.*` and a
///   `*` running from the host into the path have no exact equivalent.
/// - Greasemonkey's `.tld` ends a host with any ICANN public suffix (``PublicSuffixPattern``).
/// - A glob without a port only matches the default port (the string `http://host/` has none), so
///   it becomes one pattern per scheme with that scheme's default port; `*` as the host can swallow
///   any port and keeps any port.
/// - The path glob is a match-pattern path already.
///
/// Regular-expression rules (`/.../`) are not globs: see ``URLRegex`` and ``RegexHostProof``.
/// Exclusions are not read here either: they get the managers' broad reading (``URLGlob``).
enum IncludeGlob {
    static func strictPatterns(for written: String) throws(MatchPatternError) -> [SitePattern] {
        let text = MatchPattern.trimmedSpaces(written)
        func refuse(_ reason: String, _ suggestion: String? = nil) -> MatchPatternError {
            MatchPatternError(pattern: text, reason: reason, suggestion: suggestion)
        }
        guard !text.isEmpty else { throw refuse("it is empty") }
        if text == "*" { return [SitePattern(.matchPattern(.allURLs(text: text)))] }
        guard !text.unicodeScalars.contains(where: { $0.properties.isWhitespace }) else {
            throw refuse("it contains a space")
        }
        guard let separator = text.range(of: "://") else {
            throw refuse("without `://` its `*` would match across the scheme, host and path; write a match pattern", MatchPattern.suggestion(for: text))
        }
        let schemeGlob = text[..<separator.lowerBound].lowercased()
        let schemes = URLScheme.allCases.filter { globMatches(Array(schemeGlob.utf8), Array($0.rawValue.utf8)) }
        guard !schemes.isEmpty else {
            throw refuse("it matches none of the schemes scripts run on (http, https, file)")
        }
        var rest = text[separator.upperBound...]
        // `http://*`, `*://*`: the whole rest is the wildcard, so the rule openly claims every page
        // of its schemes, exactly what `http://*/*` says.
        if rest == "*" { rest = "*/*" }
        guard let pathStart = rest.firstIndex(of: "/") else {
            if rest.hasSuffix("*") {
                let host = rest.dropLast()
                let candidate = String(text[..<separator.lowerBound]) + "://" + String(host) + "/*"
                let suggestion = (try? MatchPattern.parse(candidate, suggestingFixes: false)) != nil ? candidate : MatchPattern.suggestion(for: candidate)
                throw refuse("its final `*` also matches longer host names such as `\(host).evil.example`; end the host with `/`", suggestion)
            }
            throw refuse("it has no path, so it matches no page (a page's URL always has at least `/`)", MatchPattern.suggestion(for: text))
        }
        let authority = rest[..<pathStart]
        let path = String(rest[pathStart...])
        guard !path.contains("#") else { throw refuse("a fragment (`#...`) never decides where a script runs") }
        guard !authority.contains("@") else { throw refuse("a user name is not part of a site: remove the part up to `@`") }

        var host = authority
        var explicitPort: Substring?
        if let colon = authority.lastIndex(of: ":"), !authority.hasPrefix("[") || authority[..<colon].hasSuffix("]") {
            host = authority[..<colon]
            explicitPort = authority[authority.index(after: colon)...]
        }
        if let explicitPort, explicitPort.contains("*") {
            throw refuse("a wildcard port in a glob only matches URLs that spell a port, which no match pattern can express")
        }
        var publicSuffixName: (name: String, includesSubdomains: Bool)?
        if host.lowercased().hasSuffix(".tld") {
            publicSuffixName = try Self.publicSuffixName(host.dropLast(4), refuse: refuse)
            host = "tld.invalid"
        }
        let hostIsAny = host == "*"
        if !hostIsAny {
            let wildcardFree = host.hasPrefix("*.") ? host.dropFirst(2) : host
            guard !wildcardFree.contains("*") else {
                throw refuse(MatchPattern.wildcardReason(host), MatchPattern.suggestion(for: text))
            }
        }

        var patterns: [String] = []
        let webSchemes = schemes.filter { $0 != .file }
        let hostText = String(host)
        if let explicitPort {
            let scheme = webSchemes.count == 2 ? "*" : webSchemes.first?.rawValue
            if let scheme { patterns.append("\(scheme)://\(hostText):\(explicitPort)\(path)") }
        } else if hostIsAny {
            if webSchemes.count == 2 {
                patterns.append("*://*\(path)")
            } else if let scheme = webSchemes.first {
                patterns.append("\(scheme)://*\(path)")
            }
        } else {
            for scheme in webSchemes {
                patterns.append("\(scheme)://\(hostText):\(scheme.defaultPort ?? 0)\(path)")
            }
        }
        // A file URL's host is empty, which only `file:///` or a `*` host can spell.
        if schemes.contains(.file), host.isEmpty || hostIsAny || host == "localhost", explicitPort == nil {
            patterns.append("file://\(path)")
        }
        guard !patterns.isEmpty else {
            throw refuse("it matches no page scripts run on")
        }
        var compiled: [SitePattern] = []
        for pattern in patterns {
            let base: MatchPattern
            do {
                base = try MatchPattern.parse(pattern, suggestingFixes: false)
            } catch {
                throw refuse(error.reason, error.suggestion)
            }
            if let publicSuffixName {
                compiled.append(SitePattern(.publicSuffix(PublicSuffixPattern(
                    base: base, name: publicSuffixName.name, includesSubdomains: publicSuffixName.includesSubdomains))))
            } else {
                compiled.append(SitePattern(.matchPattern(base)))
            }
        }
        return compiled
    }

    /// The name before `.tld`: a domain, optionally after `*.`, in canonical form.
    private static func publicSuffixName(
        _ written: Substring,
        refuse: (String, String?) -> MatchPatternError
    ) throws(MatchPatternError) -> (name: String, includesSubdomains: Bool) {
        let includesSubdomains = written.hasPrefix("*.")
        let name = includesSubdomains ? written.dropFirst(2) : written
        guard !name.isEmpty, !name.contains("*") else {
            throw refuse("`.tld` must follow a domain name (`*.example.tld` or `www.example.tld`)", nil)
        }
        guard let canonical = try? IDNA.toASCII(String(name)), !URLHost.hasEmptyLabel(canonical),
              canonical.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "." || $0 == "_" }) else {
            throw refuse("`\(name)` before `.tld` is not a domain name", nil)
        }
        return (canonical, includesSubdomains)
    }

    /// A glob with `*` as its only wildcard, on bytes.
    private static func globMatches(_ glob: [UInt8], _ subject: [UInt8]) -> Bool {
        var globIndex = 0
        var subjectIndex = 0
        var starGlob = -1
        var starSubject = 0
        while subjectIndex < subject.count {
            if globIndex < glob.count, glob[globIndex] == UInt8(ascii: "*") {
                starGlob = globIndex
                starSubject = subjectIndex
                globIndex += 1
            } else if globIndex < glob.count, glob[globIndex] == subject[subjectIndex] {
                globIndex += 1
                subjectIndex += 1
            } else if starGlob >= 0 {
                globIndex = starGlob + 1
                starSubject += 1
                subjectIndex = starSubject
            } else {
                return false
            }
        }
        while globIndex < glob.count, glob[globIndex] == UInt8(ascii: "*") { globIndex += 1 }
        return globIndex == glob.count
    }
}
