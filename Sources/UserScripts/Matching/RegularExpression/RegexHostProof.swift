/// Works out which hosts an `@include` regular expression can ever match, or why that cannot be
/// known; a rule is accepted only with such a proof (rule 10 of the matching rules).
///
/// The expression runs on a page's canonical address, `scheme://host[:port]/path?query#fragment`,
/// where the host is followed by `:` or `/` and never contains them, and nothing before the host
/// can be a user name. The proof reads each top-level alternative as
/// `^ SCHEME :// HOST END ...` and accepts it when
///
/// - it starts with `^`, so it cannot match an address that merely contains the site's in its path;
/// - `SCHEME` is a finite set of schemes, or cannot read past `:`;
/// - `HOST` can read no `/`, so it stays inside the authority;
/// - `END` must begin by reading `/`, `:`, `?` or `#`, or at the end of the address, so that
///   `HOST` has read the whole host and not a prefix of a longer one;
/// - `HOST` is a finite set of host names (`(www\.)?example\.(com|org)`), any of them preceded by a
///   wildcard that ends at a dot (`([^/]+\.)?example\.com`: the domain and its subdomains, never
///   `evilexample.com`), or a wildcard for every host (`[^/]+`).
///
/// An expression with nothing after `://` (`^https?:\/\/`, or only `.*` and `$`) openly claims every
/// page of its schemes: its host is every host.
///
/// The result files the rule under the hosts it names, like a match pattern; where it runs is then
/// decided by running the expression itself.
enum RegexHostProof {
    /// Why no proof could be made, as a phrase.
    struct Refusal: Error, Hashable, Sendable {
        let reason: String
    }

    private static let terminators = ASCIISet("/:?#")
    private static let slash = ASCIISet("/")
    /// What a host name is made of once canonical: a wildcard for "every host" must allow all of it.
    private static let hostCharacters = ASCIISet(range: 0x61, 0x7A).union(.digits).union(ASCIISet("-."))
    /// More literal spellings than this and the host part is read as a wildcard instead.
    private static let largestLiteralSet = 64
    private static let largestCharacterChoice = 16

    /// The hosts `node` can match, filed as match-pattern host rules.
    static func hosts(of node: RegexNode) throws(Refusal) -> [MatchPattern.HostRule] {
        var hosts: [MatchPattern.HostRule] = []
        for branch in alternatives(node) {
            for host in try Self.hosts(ofBranch: branch) where !hosts.contains(host) {
                hosts.append(host)
            }
        }
        return hosts
    }

    private static func alternatives(_ node: RegexNode) -> [RegexNode] {
        switch node {
        case .alternation(let alternatives): alternatives.flatMap(Self.alternatives)
        case .group(let inner): alternatives(inner)
        default: [node]
        }
    }

    /// The node as a flat list of parts, with plain groups opened up.
    private static func parts(_ node: RegexNode) -> [RegexNode] {
        switch node {
        case .sequence(let parts): parts.flatMap(Self.parts)
        case .group(let inner):
            if case .alternation = inner { [node] } else { parts(inner) }
        case .empty: []
        default: [node]
        }
    }

    private static func hosts(ofBranch branch: RegexNode) throws(Refusal) -> [MatchPattern.HostRule] {
        var items = parts(branch)
        guard case .assertion(.start)? = items.first else {
            throw Refusal(reason: "it does not start with `^`, so it also matches an address that only mentions the site in its path or query")
        }
        items.removeFirst()
        guard let separator = schemeSeparator(in: items) else {
            throw Refusal(reason: "PageScript cannot see where its scheme ends: after `^`, write the scheme and then `:\\/\\/` outside any group")
        }
        try checkScheme(Array(items[..<separator]))
        let rest = Array(items[(separator + 3)...])
        // `^https?:\/\/` (or `^https?:\/\/.*$`): nothing after the scheme limits the address, so
        // the rule openly claims every page of its schemes.
        if rest.allSatisfy(readsAnything) { return [.any] }
        var hostEnd: Int?
        for candidate in 1..<max(rest.count, 1) {
            if consumable(rest[..<candidate]).contains(UInt8(ascii: "/")) {
                if rest[..<candidate].contains(where: isAnyCharacter) {
                    throw Refusal(reason: "an unescaped `.` in its host matches any character, `/` included, so it can run into the path of another site's address; write `\\.` for a dot and `[^/]*` for a wildcard")
                }
                throw Refusal(reason: "its host part can read `/`, so it can run into the path of another site's address; write `[^/]*` for a wildcard")
            }
            var budget = 10_000
            if try endsHost(rest[candidate...], budget: &budget) {
                hostEnd = candidate
                break
            }
        }
        guard let hostEnd else {
            throw Refusal(reason: "nothing ends its host (it must be followed by `\\/`, `:`, `\\?`, `#` or `$`), so it also matches longer host names such as `example.com.evil.example`")
        }
        return try hostRules(Array(rest[..<hostEnd]))
    }

    /// Whether `node` accepts any text after the scheme: an unbounded repetition, from zero, of
    /// any character, or `$`.
    private static func readsAnything(_ node: RegexNode) -> Bool {
        switch node {
        case .assertion(.end): true
        case .repetition(let inner, 0, nil): isAnyCharacter(inner)
        case .group(let inner): parts(inner).allSatisfy(readsAnything)
        default: false
        }
    }

    private static func isAnyCharacter(_ node: RegexNode) -> Bool {
        switch node {
        case .characters(let set): set == .notLineTerminator
        case .repetition(let inner, _, _), .group(let inner): isAnyCharacter(inner)
        case .sequence(let parts): parts.contains(where: isAnyCharacter)
        case .alternation(let alternatives): alternatives.contains(where: isAnyCharacter)
        default: false
        }
    }

    private static func schemeSeparator(in items: [RegexNode]) -> Int? {
        guard items.count >= 3 else { return nil }
        for index in 0...(items.count - 3) {
            if case .characters(let colon) = items[index], colon == ASCIISet(":"),
               case .characters(let first) = items[index + 1], first == slash,
               case .characters(let second) = items[index + 2], second == slash {
                return index
            }
        }
        return nil
    }

    private static func checkScheme(_ items: [RegexNode]) throws(Refusal) {
        if let spellings = finiteStrings(.sequence(items)) {
            guard spellings.contains(where: { URLScheme(rawValue: $0) != nil }) else {
                throw Refusal(reason: "its scheme matches none of http, https and file, the pages scripts run on")
            }
            return
        }
        guard !consumable(items[...]).contains(UInt8(ascii: ":")), !consumable(items[...]).contains(UInt8(ascii: "/")) else {
            throw Refusal(reason: "its scheme part can read `:` or `/`, so it can run past the scheme")
        }
    }

    /// The host rules for the parts that read the host.
    private static func hostRules(_ host: [RegexNode]) throws(Refusal) -> [MatchPattern.HostRule] {
        var literal = [""]
        var split = host.count
        while split > 0, let spellings = finiteStrings(host[split - 1]), spellings.count * literal.count <= largestLiteralSet {
            literal = spellings.flatMap { spelling in literal.map { spelling + $0 } }
            split -= 1
        }
        guard !literal.isEmpty else {
            throw Refusal(reason: "its host can never match a page's address, where hosts are lowercase ASCII (internationalised names in Punycode, `xn--...`)")
        }
        let prefix = host[..<split]
        if prefix.isEmpty {
            var rules: [MatchPattern.HostRule] = []
            for name in Set(literal).sorted() {
                rules.append(.exactly(try parsedHost(name)))
            }
            return rules
        }
        if literal == [""] {
            guard prefix.count == 1, case .repetition(.characters(let set), _, nil) = prefix[prefix.startIndex], hostCharacters.isSubset(of: set) else {
                throw Refusal(reason: "its host ends in a wildcard, which matches look-alike sites under other domains and top-level domains; name the domain")
            }
            return [.any]
        }
        let wildcardEndsAtDot = lastBytes(.sequence(Array(prefix))).isSubset(of: ASCIISet("."))
        var rules: [MatchPattern.HostRule] = []
        for spelling in Set(literal).sorted() {
            let domain: Substring
            if spelling.hasPrefix(".") {
                domain = spelling.dropFirst()
            } else if wildcardEndsAtDot {
                domain = Substring(spelling)
            } else {
                throw Refusal(reason: "its wildcard runs straight into `\(spelling)`, so it matches look-alike hosts such as `evil\(spelling)`; end the wildcard with `\\.`")
            }
            guard domain.utf8.contains(where: { ASCIISet.wordCharacters.subtracting(.digits).contains($0) }),
                  case .domain(let name) = try parsedHost(String(domain)) else {
                throw Refusal(reason: "`\(domain)` after its wildcard is not a domain name")
            }
            let rule = MatchPattern.HostRule.domainAndSubdomains(name)
            if !rules.contains(rule) { rules.append(rule) }
        }
        return rules
    }

    private static func parsedHost(_ name: String) throws(Refusal) -> URLHost {
        guard !name.isEmpty, !name.hasSuffix("."), let host = try? URLHost.parse(name.utf8), host != .empty else {
            throw Refusal(reason: "`\(name)` is not a host name")
        }
        return host
    }

    /// Whether every way of matching `items` starts by reading `/`, `:`, `?` or `#`, or at the end
    /// of the address: then whatever came before has read the whole host.
    private static func endsHost(_ items: ArraySlice<RegexNode>, budget: inout Int) throws(Refusal) -> Bool {
        budget -= 1
        guard budget > 0 else { throw Refusal(reason: "it is too intricate for PageScript to work out where its host ends") }
        guard let head = items.first else { return false }
        let rest = items.dropFirst()
        switch head {
        case .characters(let set):
            // An empty set (a character no address contains) ends nothing: the branch never matches.
            return !set.isEmpty && set.isSubset(of: terminators)
        case .assertion(.end):
            return true
        case .assertion, .lookahead, .empty:
            return try endsHost(rest, budget: &budget)
        case .sequence(let parts):
            return try endsHost(ArraySlice(parts + rest), budget: &budget)
        case .group(let inner):
            return try endsHost(ArraySlice([inner] + rest), budget: &budget)
        case .alternation(let alternatives):
            for alternative in alternatives where try !endsHost(ArraySlice([alternative] + rest), budget: &budget) {
                return false
            }
            return true
        case .repetition(let inner, let minimum, let maximum):
            if maximum == 0 { return try endsHost(rest, budget: &budget) }
            if minimum == 0, try !endsHost(rest, budget: &budget) { return false }
            return try endsHost(ArraySlice([inner] + rest), budget: &budget)
        }
    }

    /// Every byte the parts can read.
    private static func consumable(_ items: ArraySlice<RegexNode>) -> ASCIISet {
        items.reduce(ASCIISet()) { $0.union(consumable($1)) }
    }

    private static func consumable(_ node: RegexNode) -> ASCIISet {
        switch node {
        case .characters(let set): set
        case .sequence(let parts): consumable(parts[...])
        case .alternation(let alternatives): consumable(alternatives[...])
        case .group(let inner): consumable(inner)
        case .repetition(let inner, _, let maximum): maximum == 0 ? ASCIISet() : consumable(inner)
        case .assertion, .lookahead, .empty: ASCIISet()
        }
    }

    /// Every spelling the node can match, lowercased, or `nil` when there are too many (a wildcard).
    /// Assertions count as matching the empty string, which can only add spellings.
    private static func finiteStrings(_ node: RegexNode) -> [String]? {
        switch node {
        case .characters(let set):
            let lowered = Set(set.bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 })
            guard lowered.count <= largestCharacterChoice else { return nil }
            return lowered.sorted().map { String(UnicodeScalar($0)) }
        case .sequence(let parts):
            var strings = [""]
            for part in parts {
                guard let next = finiteStrings(part), next.count * strings.count <= largestLiteralSet else { return nil }
                strings = strings.flatMap { prefix in next.map { prefix + $0 } }
            }
            return strings
        case .alternation(let alternatives):
            var strings: Set<String> = []
            for alternative in alternatives {
                guard let next = finiteStrings(alternative) else { return nil }
                strings.formUnion(next)
                guard strings.count <= largestLiteralSet else { return nil }
            }
            return strings.sorted()
        case .group(let inner):
            return finiteStrings(inner)
        case .repetition(let inner, let minimum, let maximum):
            guard let maximum, let once = finiteStrings(inner) else { return nil }
            var strings: Set<String> = []
            var power = [""]
            for count in 0...maximum {
                if count >= minimum { strings.formUnion(power) }
                guard count < maximum else { break }
                guard power.count * once.count <= largestLiteralSet else { return nil }
                power = power.flatMap { prefix in once.map { prefix + $0 } }
            }
            return strings.count <= largestLiteralSet ? strings.sorted() : nil
        case .assertion, .lookahead, .empty:
            return [""]
        }
    }

    /// The bytes a non-empty match of the node can end with.
    private static func lastBytes(_ node: RegexNode) -> ASCIISet {
        switch node {
        case .characters(let set):
            return set
        case .sequence(let parts):
            var bytes = ASCIISet()
            for part in parts.reversed() {
                bytes = bytes.union(lastBytes(part))
                if !isNullable(part) { break }
            }
            return bytes
        case .alternation(let alternatives):
            return alternatives.reduce(ASCIISet()) { $0.union(lastBytes($1)) }
        case .group(let inner):
            return lastBytes(inner)
        case .repetition(let inner, _, let maximum):
            return maximum == 0 ? ASCIISet() : lastBytes(inner)
        case .assertion, .lookahead, .empty:
            return ASCIISet()
        }
    }

    private static func isNullable(_ node: RegexNode) -> Bool {
        switch node {
        case .characters: false
        case .sequence(let parts): parts.allSatisfy(isNullable)
        case .alternation(let alternatives): alternatives.contains(where: isNullable)
        case .group(let inner): isNullable(inner)
        case .repetition(let inner, let minimum, _): minimum == 0 || isNullable(inner)
        case .assertion, .lookahead, .empty: true
        }
    }
}
