/// Answers "which scripts match this URL" for a whole library, fast.
///
/// Every pattern is compiled once, when the matcher is built, and filed under the host it names:
/// exact hosts in one table, `*.domain` patterns under their domain, and host wildcards in a short
/// list of their own. A lookup then reads the URL's exact host, walks up its labels
/// (`a.b.example.com`, `b.example.com`, `example.com`, `com`), and checks only the patterns filed
/// there, so its cost depends on the URL and on how many patterns could apply, not on the size of
/// the library. Exclusions win over matches, and a script without any `@match` or `@include`
/// never matches (rule 8). A script with a rule that cannot be compiled is left out entirely:
/// dropping only the bad rule could turn a narrowing `@exclude-match` into no exclusion at all.
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
        public let pattern: MatchPattern
    }

    /// Where a pattern is: plain numbers, so walking a bucket copies no references.
    private struct Posting: Sendable {
        let script: Int32
        let rule: Int32
        let pattern: Int32
    }

    private let ids: [ScriptID]
    private let inclusions: [[SiteRule]]
    private let exclusions: [[MatchPattern]]
    private let byHost: [URLHost: [Posting]]
    private let bySuffix: [String: [Posting]]
    private let anyHost: [Posting]
    private let patterns: [MatchPattern]
    /// What remains to check once a bucket is chosen, laid out flat (by pattern index) so the
    /// lookup loop touches no reference counts but the glob's.
    private let schemeRules: [MatchPattern.SchemeRule]
    private let ports: [Int]
    private let globs: [PathGlob]

    /// Builds the index, in the given order; matches are reported in the same order.
    public init(_ scripts: some Sequence<(id: ScriptID, rules: [SiteRule])>) {
        var ids: [ScriptID] = []
        var inclusions: [[SiteRule]] = []
        var exclusions: [[MatchPattern]] = []
        var byHost: [URLHost: [Posting]] = [:]
        var bySuffix: [String: [Posting]] = [:]
        var anyHost: [Posting] = []
        var patterns: [MatchPattern] = []
        for (id, rules) in scripts {
            guard !rules.contains(where: { $0.error != nil }) else { continue }
            let included = rules.filter { !$0.kind.isExclusion }
            guard !included.isEmpty else { continue }
            let script = ids.count
            ids.append(id)
            inclusions.append(included)
            exclusions.append(rules.filter(\.kind.isExclusion).flatMap(\.patterns))
            for (ruleIndex, rule) in included.enumerated() {
                for pattern in rule.patterns {
                    let posting = Posting(script: Int32(script), rule: Int32(ruleIndex), pattern: Int32(patterns.count))
                    patterns.append(pattern)
                    switch pattern.host {
                    case .any:
                        anyHost.append(posting)
                    case .exactly(let host):
                        byHost[host, default: []].append(posting)
                    case .domainAndSubdomains(let domain):
                        bySuffix[domain, default: []].append(posting)
                    }
                }
            }
        }
        self.ids = ids
        self.inclusions = inclusions
        self.exclusions = exclusions
        self.byHost = byHost
        self.bySuffix = bySuffix
        self.anyHost = anyHost
        self.patterns = patterns
        schemeRules = patterns.map(\.scheme)
        ports = patterns.map { $0.port ?? -1 }
        globs = patterns.map(\.path)
    }

    /// The number of scripts that can match automatically (those with valid rules and at least one
    /// `@match` or `@include`).
    public var count: Int { ids.count }

    /// The scripts whose rules match `url`, each once, in the order they were given.
    public func matches(_ url: PageURL) -> [Match] {
        guard let hits = url.pathAndQuery.utf8.withContiguousStorageIfAvailable({ candidates(for: url, pathAndQuery: $0) }) else {
            return matches(url, hits: Array(url.pathAndQuery.utf8).withUnsafeBufferPointer { candidates(for: url, pathAndQuery: $0) })
        }
        return matches(url, hits: hits)
    }

    /// The postings whose pattern matches: each bucket holds only patterns whose host rule accepts
    /// the URL's host, so only the scheme, port and path remain to be checked.
    private func candidates(for url: PageURL, pathAndQuery: UnsafeBufferPointer<UInt8>) -> [Posting] {
        var buckets: [[Posting]] = []
        if let exact = byHost[url.host] { buckets.append(exact) }
        if case .domain(let name) = url.host {
            var suffix = Substring(name)
            while true {
                if let postings = bySuffix[String(suffix)] { buckets.append(postings) }
                guard let dot = suffix.utf8.firstIndex(of: UInt8(ascii: ".")) else { break }
                suffix = suffix[suffix.utf8.index(after: dot)...]
            }
        }
        buckets.append(anyHost)
        var hits: [Posting] = []
        let scheme = url.scheme
        let port = url.effectivePort ?? -1
        for bucket in buckets {
            for posting in bucket {
                let index = Int(posting.pattern)
                guard schemeRules[index].accepts(scheme) else { continue }
                let required = ports[index]
                guard required == -1 || required == port else { continue }
                if globs[index].matches(bytes: pathAndQuery) { hits.append(posting) }
            }
        }
        return hits
    }

    private func matches(_ url: PageURL, hits: [Posting]) -> [Match] {
        var hits = hits
        guard !hits.isEmpty else { return [] }
        hits.sort { ($0.script, $0.rule) < ($1.script, $1.rule) }
        var matches: [Match] = []
        var previous: Int32 = -1
        for hit in hits where hit.script != previous {
            previous = hit.script
            let script = Int(hit.script)
            if exclusions[script].contains(where: { $0.matches(url) }) { continue }
            matches.append(Match(id: ids[script], rule: inclusions[script][Int(hit.rule)], pattern: patterns[Int(hit.pattern)]))
        }
        return matches
    }
}
