/// One compiled way in which a site rule matches pages: a match pattern, an `@include` regular
/// expression with the hosts it was proven to stay on, a `.tld` glob, or one of the broad forms an
/// exclusion is read in.
///
/// ```swift
/// let rule = try #require(script.interpretation.rules.first)
/// for pattern in rule.patterns { print(pattern) }   // "https://example.com:443/*", ...
/// ```
public struct SitePattern: Hashable, Sendable, CustomStringConvertible {
    enum Form: Hashable, Sendable {
        /// A match pattern, from `@match` or a glob converted exactly.
        case matchPattern(MatchPattern)
        /// A `.tld` glob, expanded with the Public Suffix List when a page is matched.
        case publicSuffix(PublicSuffixPattern)
        /// An `@include` regular expression, run on the page's address; `hosts` are those it can
        /// match, where the matcher files it.
        case regularExpression(URLRegex, hosts: [MatchPattern.HostRule])
        /// An exclusion regular expression, run on the whole address.
        case exclusionExpression(URLRegex)
        /// An exclusion glob over the whole address, in any case.
        case exclusionGlob(URLGlob)
        /// An `@exclude-match` pattern whose path is compared in any case.
        case exclusionPattern(MatchPattern, anyCasePath: PathGlob)
    }

    let form: Form

    init(_ form: Form) {
        self.form = form
    }

    static func exclusion(_ pattern: MatchPattern) -> SitePattern {
        SitePattern(.exclusionPattern(pattern, anyCasePath: PathGlob(String(decoding: pattern.path.text.utf8.map(IDNA.asciiLowercased), as: UTF8.self))))
    }

    /// The match pattern this is, when it is one (a `@match` line, or a glob or exclusion
    /// pattern that stands for one).
    public var matchPattern: MatchPattern? {
        switch form {
        case .matchPattern(let pattern), .exclusionPattern(let pattern, _): pattern
        default: nil
        }
    }

    /// Whether a page at `url` is covered by this pattern: as the matcher would decide for the
    /// rule the pattern belongs to (for an exclusion, whether it excludes the page).
    ///
    /// - Parameter publicSuffixListPath: Where the Public Suffix List is, for a `.tld` glob; when
    ///   it cannot be read, a `.tld` glob matches nothing.
    public func matches(_ url: PageURL, publicSuffixListPath: String = PublicSuffixList.systemPath) -> Bool {
        var pathAndQuery = url.pathAndQuery
        switch form {
        case .matchPattern(let pattern):
            return pattern.matches(url)
        case .publicSuffix(let pattern):
            guard let list = try? PublicSuffixList.shared(at: publicSuffixListPath).get() else { return false }
            return pathAndQuery.withUTF8 { pattern.matches(url, pathAndQuery: $0, suffixes: list) }
        case .regularExpression(let expression, _):
            return expression.matches(url.href)
        case .exclusionExpression(let expression):
            return expression.matches(url.href) || expression.matches(url.description)
        case .exclusionGlob(let glob):
            return [url.href, url.description].contains { form in
                var lowered = String(decoding: form.utf8.map(IDNA.asciiLowercased), as: UTF8.self)
                return lowered.withUTF8 { glob.matches(lowercased: $0) }
            }
        case .exclusionPattern(let pattern, let anyCasePath):
            guard pattern.hostAccepts(url.host) else { return false }
            if pattern.matches(url) { return true }
            var lowered = String(decoding: url.pathAndQuery.utf8.map(IDNA.asciiLowercased), as: UTF8.self)
            return lowered.withUTF8 { pattern.matchesIgnoringHost(url, pathAndQuery: $0, path: anyCasePath) }
        }
    }

    /// Whether matching the pattern needs the Public Suffix List (a `.tld` glob).
    public var usesPublicSuffixList: Bool {
        if case .publicSuffix = form { return true }
        return false
    }

    /// What the pattern is, as written or in canonical form: a match pattern, the regular
    /// expression, or the glob.
    public var text: String {
        switch form {
        case .matchPattern(let pattern), .exclusionPattern(let pattern, _): pattern.text
        case .publicSuffix(let pattern): pattern.description
        case .regularExpression(let expression, _), .exclusionExpression(let expression): expression.text
        case .exclusionGlob(let glob): glob.text
        }
    }

    /// The pattern with what PageScript knows about it: a match pattern in canonical form, an
    /// expression with the hosts it can match, a glob with how it is read.
    public var description: String {
        switch form {
        case .matchPattern(let pattern):
            return pattern.description
        case .exclusionPattern(let pattern, _):
            return "\(pattern.description) (path in any case)"
        case .publicSuffix(let pattern):
            return pattern.description
        case .regularExpression(let expression, let hosts):
            return "\(expression.text) on \(Self.describe(hosts))"
        case .exclusionExpression(let expression):
            return "\(expression.text) on the whole address, in any case"
        case .exclusionGlob(let glob):
            return "\(glob.text) on the whole address, in any case"
        }
    }

    /// `example.com, *.example.org` or `every host`.
    static func describe(_ hosts: [MatchPattern.HostRule]) -> String {
        hosts.map { host in
            switch host {
            case .any: "every host"
            case .exactly(let exact): exact.description
            case .domainAndSubdomains(let domain): "*.\(domain)"
            }
        }.joined(separator: ", ")
    }
}
