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
    ///
    /// It holds positions in the matcher's tables rather than copies, so that a lookup returning
    /// hundreds of scripts copies no strings or arrays.
    public struct Match: Sendable {
        private let tables: Tables
        private let scriptIndex: Int32
        private let ruleIndex: Int32
        private let patternIndex: Int32

        fileprivate init(tables: Tables, script: Int32, rule: Int32, pattern: Int32) {
            self.tables = tables
            scriptIndex = script
            ruleIndex = rule
            patternIndex = pattern
        }

        /// The script's identifier, as given to the matcher.
        public var id: ScriptID { tables.ids[Int(scriptIndex)] }
        /// The `@match` or `@include` rule that matched.
        public var rule: SiteRule { tables.inclusions[Int(scriptIndex)][Int(ruleIndex)] }
        /// The compiled pattern of that rule that matched.
        public var pattern: SitePattern { tables.patterns[Int(patternIndex)] }
    }

    /// Where a pattern is, and which check settles it once its bucket has chosen it: plain
    /// numbers, so walking a bucket copies no references and reads one contiguous array.
    private struct Posting: Sendable {
        let script: Int32
        let rule: Int32
        let pattern: Int32
        /// Patterns whose remaining check is the same (`*://` and `/issues/*` on different
        /// hosts) share it, and a lookup works its answer out once.
        let check: Int32

        /// Script, then rule: the order matches are reported in.
        var order: Int64 { Int64(script) << 32 | Int64(rule) }
    }

    /// What a match reports, shared by every match of the matcher.
    fileprivate final class Tables: Sendable {
        let ids: [ScriptID]
        let inclusions: [[SiteRule]]
        let patterns: [SitePattern]

        init(ids: [ScriptID], inclusions: [[SiteRule]], patterns: [SitePattern]) {
            self.ids = ids
            self.inclusions = inclusions
            self.patterns = patterns
        }
    }

    /// How a pattern's remaining check is done once a bucket has chosen it: `kind` says which
    /// table `payload` indexes.
    private enum CheckKind: UInt8, Sendable {
        case matchPattern, expression, publicSuffix
    }

    /// What a match pattern still checks once its host is accepted: equal keys share a check.
    private struct MatchPatternCheck: Hashable {
        let scheme: MatchPattern.SchemeRule
        let port: Int?
        let path: String
    }

    private let tables: Tables
    private let byHost: [URLHost: [Posting]]
    private let bySuffix: [String: [Posting]]
    private let byRegisteredLabel: [String: [Posting]]
    private let anyHost: [Posting]
    private let checkKinds: [CheckKind]
    private let checkPayloads: [Int32]
    private let schemeRules: [MatchPattern.SchemeRule]
    private let ports: [Int32]
    private let globs: [PathGlob]
    /// Each distinct expression once: scripts that share one share its answer within a lookup.
    private let expressions: [URLRegex]
    private let suffixPatterns: [PublicSuffixPattern]
    /// Script `n`'s exclusions are `exclusionIDs[exclusionStarts[n]..<exclusionStarts[n + 1]]`,
    /// positions in ``distinctExclusions``.
    private let exclusionStarts: [Int32]
    private let exclusionIDs: [Int32]
    private let distinctExclusions: [SitePattern]
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
        var patterns: [SitePattern] = []
        var byHost: [URLHost: [Posting]] = [:]
        var bySuffix: [String: [Posting]] = [:]
        var byRegisteredLabel: [String: [Posting]] = [:]
        var anyHost: [Posting] = []
        var checkKinds: [CheckKind] = []
        var checkPayloads: [Int32] = []
        var matchPatternChecks: [MatchPatternCheck: Int32] = [:]
        var expressionChecks: [Int32: Int32] = [:]
        var schemeRules: [MatchPattern.SchemeRule] = []
        var ports: [Int32] = []
        var globs: [PathGlob] = []
        var expressions: [URLRegex] = []
        var expressionIDs: [String: Int32] = [:]
        var suffixPatterns: [PublicSuffixPattern] = []
        var exclusionStarts: [Int32] = [0]
        var exclusionIDs: [Int32] = []
        var distinctExclusions: [SitePattern] = []
        var exclusionByPattern: [SitePattern: Int32] = [:]
        for (id, rules) in scripts {
            guard !rules.contains(where: { $0.kind.isExclusion && $0.error != nil && !$0.text.isEmpty }) else { continue }
            let included = rules.filter { !$0.kind.isExclusion && $0.error == nil }
            guard !included.isEmpty else { continue }
            let script = Int32(ids.count)
            ids.append(id)
            inclusions.append(included)
            for exclusion in rules.filter(\.kind.isExclusion).flatMap(\.patterns) {
                if let existing = exclusionByPattern[exclusion] {
                    exclusionIDs.append(existing)
                } else {
                    let position = Int32(distinctExclusions.count)
                    distinctExclusions.append(exclusion)
                    exclusionByPattern[exclusion] = position
                    exclusionIDs.append(position)
                }
            }
            exclusionStarts.append(Int32(exclusionIDs.count))
            for (ruleIndex, rule) in included.enumerated() {
                for pattern in rule.patterns {
                    func newCheck(_ kind: CheckKind, payload: Int) -> Int32 {
                        checkKinds.append(kind)
                        checkPayloads.append(Int32(payload))
                        return Int32(checkKinds.count - 1)
                    }
                    let check: Int32
                    let hosts: [MatchPattern.HostRule]
                    switch pattern.form {
                    case .matchPattern(let compiled):
                        let key = MatchPatternCheck(scheme: compiled.scheme, port: compiled.port, path: compiled.path.text)
                        if let existing = matchPatternChecks[key] {
                            check = existing
                        } else {
                            check = newCheck(.matchPattern, payload: globs.count)
                            matchPatternChecks[key] = check
                            schemeRules.append(compiled.scheme)
                            ports.append(Int32(compiled.port ?? -1))
                            globs.append(compiled.path)
                        }
                        hosts = [compiled.host]
                    case .regularExpression(let expression, let proven):
                        let position: Int32
                        if let existing = expressionIDs[expression.text] {
                            position = existing
                        } else {
                            position = Int32(expressions.count)
                            expressions.append(expression)
                            expressionIDs[expression.text] = position
                        }
                        if let existing = expressionChecks[position] {
                            check = existing
                        } else {
                            check = newCheck(.expression, payload: Int(position))
                            expressionChecks[position] = check
                        }
                        hosts = proven
                    case .publicSuffix(let suffixPattern):
                        check = newCheck(.publicSuffix, payload: suffixPatterns.count)
                        suffixPatterns.append(suffixPattern)
                        hosts = []
                    case .exclusionExpression, .exclusionGlob, .exclusionPattern:
                        preconditionFailure("an exclusion pattern in an inclusion rule")
                    }
                    let posting = Posting(script: script, rule: Int32(ruleIndex), pattern: Int32(patterns.count), check: check)
                    patterns.append(pattern)
                    if case .publicSuffix(let suffixPattern) = pattern.form {
                        byRegisteredLabel[String(suffixPattern.registeredLabel), default: []].append(posting)
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
        tables = Tables(ids: ids, inclusions: inclusions, patterns: patterns)
        self.byHost = byHost
        self.bySuffix = bySuffix
        self.byRegisteredLabel = byRegisteredLabel
        self.anyHost = anyHost
        self.checkKinds = checkKinds
        self.checkPayloads = checkPayloads
        self.schemeRules = schemeRules
        self.ports = ports
        self.globs = globs
        self.expressions = expressions
        self.suffixPatterns = suffixPatterns
        self.exclusionStarts = exclusionStarts
        self.exclusionIDs = exclusionIDs
        self.distinctExclusions = distinctExclusions
        self.publicSuffixListPath = publicSuffixListPath
    }

    /// The number of scripts that can match automatically (those with at least one usable
    /// `@match` or `@include`, and no exclusion that cannot be read).
    public var count: Int { tables.ids.count }

    /// Whether any script has a `.tld` rule, which needs the Public Suffix List.
    public var usesPublicSuffixList: Bool { !byRegisteredLabel.isEmpty }

    /// The scripts whose rules match `url`, each once, in the order they were given.
    public func matches(_ url: PageURL) -> [Match] {
        var lookup = Lookup(url: url, checkCount: checkKinds.count, exclusionCount: distinctExclusions.count)
        var pathAndQuery = url.pathAndQuery
        let hits = pathAndQuery.withUTF8 { candidates(for: url, pathAndQuery: $0, lookup: &lookup) }
        guard !hits.isEmpty else { return [] }
        return matches(hits: hits, url: url, lookup: &lookup)
    }

    /// What one lookup works out once: the address in the forms expressions and exclusion globs
    /// run on, and the answers of checks and exclusions that several patterns share.
    private struct Lookup {
        let url: PageURL
        private var hrefBytes: [UInt8]?
        private var lowercasedForms: [[UInt8]]?
        /// 0: not asked yet, 1: no, 2: yes.
        var checkAnswers: [UInt8]
        var exclusionAnswers: [UInt8]
        /// The page host's public suffix, looked up the first time a `.tld` pattern needs it.
        var publicSuffix: Substring??

        init(url: PageURL, checkCount: Int, exclusionCount: Int) {
            self.url = url
            checkAnswers = checkCount == 0 ? [] : [UInt8](repeating: 0, count: checkCount)
            exclusionAnswers = exclusionCount == 0 ? [] : [UInt8](repeating: 0, count: exclusionCount)
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

    /// The postings whose pattern matches, in (script, rule) order: each bucket holds only
    /// patterns whose host rule accepts the URL's host (or may accept it, for `.tld` globs and
    /// proven expressions), its postings are already in that order, and the check settles the
    /// rest; the buckets' hits are then merged.
    private func candidates(for url: PageURL, pathAndQuery: UnsafeBufferPointer<UInt8>, lookup: inout Lookup) -> [Posting] {
        var perBucket: [[Posting]] = []
        func check(_ bucket: [Posting]) {
            var hits: [Posting] = []
            for posting in bucket where accepts(posting, url, pathAndQuery, &lookup) { hits.append(posting) }
            if !hits.isEmpty { perBucket.append(hits) }
        }
        if let exact = byHost[url.host] { check(exact) }
        if case .domain(let name) = url.host {
            var suffix = Substring(name)
            while true {
                if let postings = bySuffix[String(suffix)] { check(postings) }
                guard let dot = suffix.utf8.firstIndex(of: UInt8(ascii: ".")) else { break }
                if !byRegisteredLabel.isEmpty, let postings = byRegisteredLabel[String(suffix[..<dot])] { check(postings) }
                suffix = suffix[suffix.utf8.index(after: dot)...]
            }
        }
        check(anyHost)
        return Self.merged(perBucket)
    }

    private func accepts(_ posting: Posting, _ url: PageURL, _ pathAndQuery: UnsafeBufferPointer<UInt8>, _ lookup: inout Lookup) -> Bool {
        let check = Int(posting.check)
        let known = lookup.checkAnswers[check]
        if known != 0 { return known == 2 }
        let accepted = settle(check, url, pathAndQuery, &lookup)
        lookup.checkAnswers[check] = accepted ? 2 : 1
        return accepted
    }

    /// The answer of one check for the page, the first time a lookup needs it.
    private func settle(_ check: Int, _ url: PageURL, _ pathAndQuery: UnsafeBufferPointer<UInt8>, _ lookup: inout Lookup) -> Bool {
        let payload = Int(checkPayloads[check])
        switch checkKinds[check] {
        case .matchPattern:
            guard schemeRules[payload].accepts(url.scheme) else { return false }
            let required = ports[payload]
            guard required == -1 || Int(required) == url.effectivePort ?? -1 else { return false }
            return globs[payload].matches(bytes: pathAndQuery)
        case .expression:
            return lookup.href().withUnsafeBufferPointer { expressions[payload].matches($0) }
        case .publicSuffix:
            if lookup.publicSuffix == nil {
                let suffixes = try? PublicSuffixList.shared(at: publicSuffixListPath).get()
                lookup.publicSuffix = .some(suffixes.flatMap { PublicSuffixPattern.publicSuffix(of: url.host, in: $0) })
            }
            return suffixPatterns[payload].matches(url, pathAndQuery: pathAndQuery, publicSuffix: lookup.publicSuffix ?? nil)
        }
    }

    /// Merges lists each in (script, rule) order into one.
    private static func merged(_ lists: [[Posting]]) -> [Posting] {
        if lists.count <= 1 { return lists.first ?? [] }
        var heads = [Int](repeating: 0, count: lists.count)
        var merged: [Posting] = []
        merged.reserveCapacity(lists.reduce(0) { $0 + $1.count })
        while true {
            var best = -1
            var bestOrder = Int64.max
            for list in lists.indices where heads[list] < lists[list].count {
                let order = lists[list][heads[list]].order
                if order < bestOrder {
                    bestOrder = order
                    best = list
                }
            }
            guard best >= 0 else { return merged }
            merged.append(lists[best][heads[best]])
            heads[best] += 1
        }
    }

    private func matches(hits: [Posting], url: PageURL, lookup: inout Lookup) -> [Match] {
        var matches: [Match] = []
        matches.reserveCapacity(hits.count)
        var previous: Int32 = -1
        for hit in hits where hit.script != previous {
            previous = hit.script
            if isExcluded(Int(hit.script), url, &lookup) { continue }
            matches.append(Match(tables: tables, script: hit.script, rule: hit.rule, pattern: hit.pattern))
        }
        return matches
    }

    private func isExcluded(_ script: Int, _ url: PageURL, _ lookup: inout Lookup) -> Bool {
        for position in Int(exclusionStarts[script])..<Int(exclusionStarts[script + 1]) {
            let exclusion = Int(exclusionIDs[position])
            if lookup.exclusionAnswers[exclusion] == 0 {
                lookup.exclusionAnswers[exclusion] = excludes(distinctExclusions[exclusion], url, &lookup) ? 2 : 1
            }
            if lookup.exclusionAnswers[exclusion] == 2 { return true }
        }
        return false
    }

    /// Whether an exclusion covers the page; the address forms are made once per lookup.
    private func excludes(_ pattern: SitePattern, _ url: PageURL, _ lookup: inout Lookup) -> Bool {
        switch pattern.form {
        case .exclusionGlob(let glob):
            return lookup.lowercased().contains { form in form.withUnsafeBufferPointer { glob.matches(lowercased: $0) } }
        case .exclusionExpression(let expression):
            if lookup.href().withUnsafeBufferPointer({ expression.matches($0) }) { return true }
            return url.fragment != nil && expression.matches(url.description)
        default:
            return pattern.matches(url, publicSuffixListPath: publicSuffixListPath)
        }
    }
}
