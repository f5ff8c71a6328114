/// Answers "which scripts match this URL" for a whole library, fast.
///
/// Every pattern is compiled once, when the matcher is built, and filed under the host it names:
/// exact hosts in one table, `*.domain` patterns (and regular expressions proven to stay on a
/// domain and its subdomains) under their domain, `.tld` globs under the label before the public
/// suffix, and host wildcards in a short list of their own. A lookup then reads the URL's exact
/// host, walks up its labels (`a.b.example.com`, `b.example.com`, `example.com`, `com`), and checks
/// only the patterns filed there, so its cost depends on the URL and on how many patterns could
/// apply, not on the size of the library.
///
/// Exclusions win over matches, and a script without any usable `@match` or `@include` never
/// matches (rule 8). A rule that was set aside adds nothing; an exclusion that was set aside (it
/// cannot be read) keeps its whole script out, since PageScript cannot tell what it excludes.
///
/// ```swift
/// let matcher = ScriptMatcher(scripts.map { (id: $0.id, rules: $0.script.siteRules) })
/// for match in matcher.matches(try PageURL("https://www.example.com/")) {
///     print(match.id, match.pattern)
/// }
/// ```
public struct ScriptMatcher: Sendable {
    /// A script that matches, with the rule and the pattern that matched first.
    public struct Match: Sendable {
        /// The script's identifier, as given to the matcher.
        public let id: ScriptID
        /// The `@match` or `@include` rule that matched.
        public let rule: SiteRule
        /// The compiled pattern of that rule that matched.
        public let pattern: SitePattern
    }

    /// Where a pattern is: plain numbers, so walking a bucket copies no references.
    private struct Posting: Sendable {
        let script: Int32
        let rule: Int32
        let pattern: Int32
    }

    /// What remains to check once a bucket is chosen.
    private enum Check: Sendable {
        /// Scheme, port (`-1`: any) and path.
        case pattern(MatchPattern.SchemeRule, Int, PathGlob)
        case expression(URLRegex)
        case publicSuffix(PublicSuffixPattern)
    }

    private let ids: [ScriptID]
    private let inclusions: [[SiteRule]]
    private let exclusions: [[SitePattern]]
    private let byHost: [URLHost: [Posting]]
    private let bySuffix: [String: [Posting]]
    private let byRegisteredLabel: [String: [Posting]]
    private let anyHost: [Posting]
    private let patterns: [SitePattern]
    private let checks: [Check]
    private let publicSuffixListPath: String

    /// Builds the index, in the given order; matches are reported in the same order.
    ///
    /// - Parameters:
    ///   - scripts: Each script's ID and rules.
    ///   - publicSuffixListPath: Where the Public Suffix List is, for `.tld` rules; it is read the
    ///     first time a page could match one (see ``PublicSuffixList``).
    public init(_ scripts: some Sequence<(id: ScriptID, rules: [SiteRule])>, publicSuffixListPath: String = PublicSuffixList.systemPath) {
        var ids: [ScriptID] = []
        var inclusions: [[SiteRule]] = []
        var exclusions: [[SitePattern]] = []
        var byHost: [URLHost: [Posting]] = [:]
        var bySuffix: [String: [Posting]] = [:]
        var byRegisteredLabel: [String: [Posting]] = [:]
        var anyHost: [Posting] = []
        var patterns: [SitePattern] = []
        var checks: [Check] = []
        for (id, rules) in scripts {
            guard !rules.contains(where: { $0.kind.isExclusion && $0.error != nil && !$0.text.isEmpty }) else { continue }
            let included = rules.filter { !$0.kind.isExclusion && $0.error == nil }
            guard !included.isEmpty else { continue }
            let script = ids.count
            ids.append(id)
            inclusions.append(included)
            exclusions.append(rules.filter(\.kind.isExclusion).flatMap(\.patterns))
            for (ruleIndex, rule) in included.enumerated() {
                for pattern in rule.patterns {
                    let posting = Posting(script: Int32(script), rule: Int32(ruleIndex), pattern: Int32(patterns.count))
                    patterns.append(pattern)
                    let hosts: [MatchPattern.HostRule]
                    switch pattern.form {
                    case .matchPattern(let compiled):
                        checks.append(.pattern(compiled.scheme, compiled.port ?? -1, compiled.path))
                        hosts = [compiled.host]
                    case .regularExpression(let expression, let proven):
                        checks.append(.expression(expression))
                        hosts = proven
                    case .publicSuffix(let suffixPattern):
                        checks.append(.publicSuffix(suffixPattern))
                        byRegisteredLabel[String(suffixPattern.registeredLabel), default: []].append(posting)
                        hosts = []
                    case .exclusionExpression, .exclusionGlob, .exclusionPattern:
                        preconditionFailure("an exclusion pattern in an inclusion rule")
                    }
                    for host in hosts {
                        switch host {
                        case .any: anyHost.append(posting)
                        case .exactly(let exact): byHost[exact, default: []].append(posting)
                        case .domainAndSubdomains(let domain): bySuffix[domain, default: []].append(posting)
                        }
                    }
                }
            }
        }
        self.ids = ids
        self.inclusions = inclusions
        self.exclusions = exclusions
        self.byHost = byHost
        self.bySuffix = bySuffix
        self.byRegisteredLabel = byRegisteredLabel
        self.anyHost = anyHost
        self.patterns = patterns
        self.checks = checks
        self.publicSuffixListPath = publicSuffixListPath
    }

    /// The number of scripts that can match automatically (those with at least one usable
    /// `@match` or `@include`, and no exclusion that cannot be read).
    public var count: Int { ids.count }

    /// Whether any script has a `.tld` rule, which needs the Public Suffix List.
    public var usesPublicSuffixList: Bool { !byRegisteredLabel.isEmpty }

    /// The scripts whose rules match `url`, each once, in the order they were given.
    public func matches(_ url: PageURL) -> [Match] {
        var subject = Subject(url: url)
        var pathAndQuery = url.pathAndQuery
        let hits = pathAndQuery.withUTF8 { candidates(for: url, pathAndQuery: $0, subject: &subject) }
        guard !hits.isEmpty else { return [] }
        return matches(hits: hits, url: url, subject: &subject)
    }

    /// The address in the forms regular expressions and exclusion globs are run on, made only
    /// when a rule needs them.
    private struct Subject {
        let url: PageURL
        private var hrefBytes: [UInt8]?
        private var lowercasedForms: [[UInt8]]?

        init(url: PageURL) {
            self.url = url
        }

        /// `href`: the canonical address with its fragment.
        mutating func href() -> [UInt8] {
            if let hrefBytes { return hrefBytes }
            let bytes = Array(url.href.utf8)
            hrefBytes = bytes
            return bytes
        }

        /// `href` and the address without its fragment, lowercase: exclusion globs try both, so
        /// that they exclude at least what the managers' reading excludes.
        mutating func lowercased() -> [[UInt8]] {
            if let lowercasedForms { return lowercasedForms }
            var forms = [href().map(IDNA.asciiLowercased)]
            if url.fragment != nil { forms.append(Array(url.description.utf8).map(IDNA.asciiLowercased)) }
            lowercasedForms = forms
            return forms
        }
    }

    /// The postings whose pattern matches: each bucket holds only patterns whose host rule accepts
    /// the URL's host (or may accept it, for `.tld` globs and proven expressions), and the check
    /// settles the rest.
    private func candidates(for url: PageURL, pathAndQuery: UnsafeBufferPointer<UInt8>, subject: inout Subject) -> [Posting] {
        var buckets: [[Posting]] = []
        if let exact = byHost[url.host] { buckets.append(exact) }
        if case .domain(let name) = url.host {
            var suffix = Substring(name)
            while true {
                if let postings = bySuffix[String(suffix)] { buckets.append(postings) }
                guard let dot = suffix.utf8.firstIndex(of: UInt8(ascii: ".")) else { break }
                if !byRegisteredLabel.isEmpty, let postings = byRegisteredLabel[String(suffix[..<dot])] { buckets.append(postings) }
                suffix = suffix[suffix.utf8.index(after: dot)...]
            }
        }
        buckets.append(anyHost)
        var hits: [Posting] = []
        let scheme = url.scheme
        let port = url.effectivePort ?? -1
        var suffixes: PublicSuffixList?
        var suffixesRead = false
        for bucket in buckets {
            for posting in bucket {
                switch checks[Int(posting.pattern)] {
                case .pattern(let schemeRule, let required, let glob):
                    guard schemeRule.accepts(scheme), required == -1 || required == port, glob.matches(bytes: pathAndQuery) else { continue }
                case .expression(let expression):
                    let href = subject.href()
                    guard href.withUnsafeBufferPointer({ expression.matches($0) }) else { continue }
                case .publicSuffix(let suffixPattern):
                    if !suffixesRead {
                        suffixes = try? PublicSuffixList.shared(at: publicSuffixListPath).get()
                        suffixesRead = true
                    }
                    guard let suffixes, suffixPattern.matches(url, pathAndQuery: pathAndQuery, suffixes: suffixes) else { continue }
                }
                hits.append(posting)
            }
        }
        return hits
    }

    private func matches(hits: [Posting], url: PageURL, subject: inout Subject) -> [Match] {
        var hits = hits
        hits.sort { ($0.script, $0.rule) < ($1.script, $1.rule) }
        var matches: [Match] = []
        var previous: Int32 = -1
        for hit in hits where hit.script != previous {
            previous = hit.script
            let script = Int(hit.script)
            if exclusions[script].contains(where: { excludes($0, url, &subject) }) { continue }
            matches.append(Match(id: ids[script], rule: inclusions[script][Int(hit.rule)], pattern: patterns[Int(hit.pattern)]))
        }
        return matches
    }

    /// Whether an exclusion covers the page; the address forms are made once per lookup.
    private func excludes(_ pattern: SitePattern, _ url: PageURL, _ subject: inout Subject) -> Bool {
        switch pattern.form {
        case .exclusionGlob(let glob):
            return subject.lowercased().contains { form in form.withUnsafeBufferPointer { glob.matches(lowercased: $0) } }
        case .exclusionExpression(let expression):
            if subject.href().withUnsafeBufferPointer({ expression.matches($0) }) { return true }
            return url.fragment != nil && expression.matches(url.description)
        default:
            return pattern.matches(url, publicSuffixListPath: publicSuffixListPath)
        }
    }
}
