/// One `@match`, `@exclude-match`, `@include` or `@exclude` line, compiled, with how PageScript
/// reads it.
///
/// Inclusions are read strictly: `@match` as a match pattern, `@include` globs within each part of
/// the address (a narrowing the ``reading`` spells out), `.tld` with the Public Suffix List, and
/// `/regular expressions/` only when PageScript can prove which hosts they can match. A rule that
/// cannot be read safely is set aside, with the reason and a suggested `@match`: it adds no pages,
/// and the script's other rules stand.
///
/// Exclusions are read at least as broadly as the managers read them (an exclusion can only narrow
/// where a script runs, so reading it broadly is safe): globs and invalid `@exclude-match` lines
/// against the whole address in any case, regular expressions as written. An exclusion that cannot
/// be read at all keeps the script from running automatically.
public struct SiteRule: Hashable, Sendable, CustomStringConvertible {
    /// Which key the rule was written with.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        case match
        case excludeMatch = "exclude-match"
        case include
        case exclude

        /// The metadata key, without `@`.
        public var key: String { rawValue }

        /// Whether the rule removes pages (`@exclude-match`, `@exclude`) rather than adding them.
        public var isExclusion: Bool { self == .excludeMatch || self == .exclude }
    }

    /// How PageScript reads a rule, compared with the userscript managers.
    public enum Reading: Hashable, Sendable {
        /// As written.
        case asWritten
        /// More narrowly than the managers, for safety; the text says how.
        case narrowed(String)
        /// An exclusion read at least as broadly as the managers read it; the text says how.
        case broadened(String)
        /// Not used: it matches no page (an exclusion that cannot be read keeps the script from
        /// running automatically instead).
        case setAside(MatchPatternError)
    }

    /// The key the rule was written with.
    public let kind: Kind
    /// The value as written.
    public let text: String
    /// The 1-based line number in the file.
    public let line: Int
    /// The compiled patterns: one for `@match`, possibly several for a glob; empty when set aside.
    public let patterns: [SitePattern]
    /// How the rule is read.
    public let reading: Reading

    init(kind: Kind, text: String, line: Int, patterns: [SitePattern], reading: Reading) {
        self.kind = kind
        self.text = text
        self.line = line
        self.patterns = patterns
        self.reading = reading
    }

    /// Compiles a rule as written on `line`.
    init(kind: Kind, text: String, line: Int) {
        self.kind = kind
        self.text = text
        self.line = line
        (patterns, reading) = Self.compile(kind, MatchPattern.trimmedSpaces(text))
    }

    /// Why the rule was set aside, or `nil` when it is used.
    public var error: MatchPatternError? {
        if case .setAside(let error) = reading { return error }
        return nil
    }

    /// For an inclusion that openly claims every page of its schemes (`@match *://*/*`,
    /// `@include http://*`, `<all_urls>`), those pages in words: `every http and https page`;
    /// `nil` for any other rule.
    public var everyPage: String? {
        guard !kind.isExclusion, !patterns.isEmpty else { return nil }
        var schemes: Set<URLScheme> = []
        for pattern in patterns {
            guard let match = pattern.matchPattern, case .matchPattern = pattern.form, match.port == nil, match.path.text == "/*" else { return nil }
            switch (match.scheme, match.host) {
            case (.any, .any): schemes.formUnion(URLScheme.allCases)
            case (.httpOrHTTPS, .any): schemes.formUnion([.http, .https])
            case (.exactly(.file), .exactly(.empty)): schemes.insert(.file)
            case (.exactly(let scheme), .any): schemes.insert(scheme)
            default: return nil
            }
        }
        let names = URLScheme.allCases.filter(schemes.contains).map(\.rawValue)
        let listed = names.count > 1 ? names.dropLast().joined(separator: ", ") + " and " + names[names.count - 1] : names.joined()
        return "every \(listed) page"
    }

    /// `@match *://example.com/*` as written.
    public var description: String { "@\(kind.key) \(text)" }

    private static func compile(_ kind: Kind, _ text: String) -> ([SitePattern], Reading) {
        guard !text.isEmpty else {
            return ([], .setAside(MatchPatternError(pattern: text, reason: kind.isExclusion ? "it is empty, so it excludes nothing" : "it is empty")))
        }
        switch kind {
        case .match:
            do {
                return ([SitePattern(.matchPattern(try MatchPattern.parse(text, suggestingFixes: true)))], .asWritten)
            } catch {
                if let narrowed = HostWildcardReading.narrowed(text),
                   let pattern = try? MatchPattern.parse(narrowed.text, suggestingFixes: false) {
                    let how = "read as \(pattern): " + HostWildcardReading.explanation(domain: narrowed.domain)
                    return ([SitePattern(.matchPattern(pattern))], .narrowed(how))
                }
                return ([], .setAside(error))
            }
        case .include:
            if URLRegex.isRegularExpression(text) { return compileIncludedExpression(text) }
            do {
                let patterns = try IncludeGlob.strictPatterns(for: text)
                return (patterns, globReading(text, patterns))
            } catch {
                if let narrowed = HostWildcardReading.narrowed(text),
                   let patterns = try? IncludeGlob.strictPatterns(for: narrowed.text) {
                    return (patterns, globReading(narrowed.text, patterns, also: HostWildcardReading.explanation(domain: narrowed.domain)))
                }
                return ([], .setAside(error))
            }
        case .excludeMatch:
            if let pattern = try? MatchPattern.parse(text, suggestingFixes: false) {
                return ([.exclusion(pattern)], .broadened("its path is compared in any case, as the managers compare it"))
            }
            return ([SitePattern(.exclusionGlob(URLGlob(text)))], .broadened(
                "it is not a valid match pattern, so it is read as a glob over the whole address, in any case: it excludes at least what its author meant"))
        case .exclude:
            if URLRegex.isRegularExpression(text) {
                do {
                    return ([SitePattern(.exclusionExpression(try URLRegex(text)))], .broadened("run on the whole address in any case, as the managers run it"))
                } catch {
                    return ([], .setAside(MatchPatternError(
                        pattern: text,
                        reason: "\(error.reason); PageScript cannot tell which pages it excludes, so the script runs only on demand until the rule is fixed")))
                }
            }
            var patterns = [SitePattern(.exclusionGlob(URLGlob(text)))]
            if let strict = try? IncludeGlob.strictPatterns(for: text) {
                patterns += strict.compactMap(\.matchPattern).map(SitePattern.exclusion)
            }
            return (patterns, .broadened("matched against the whole address, `*` across every part and letters in any case, as the managers match it"))
        }
    }

    private static func compileIncludedExpression(_ text: String) -> ([SitePattern], Reading) {
        let expression: URLRegex
        do {
            expression = try URLRegex(text)
        } catch {
            return ([], .setAside(MatchPatternError(pattern: text, reason: error.reason)))
        }
        do {
            let hosts = try RegexHostProof.hosts(of: expression.node)
            return ([SitePattern(.regularExpression(expression, hosts: hosts))], .asWritten)
        } catch {
            return ([], .setAside(MatchPatternError(pattern: text, reason: error.reason, suggestion: expression.suggestedMatchPattern)))
        }
    }

    /// How a converted glob differs from the managers' reading of it.
    private static func globReading(_ text: String, _ patterns: [SitePattern], also narrowing: String? = nil) -> Reading {
        var differences: [String] = narrowing.map { [$0] } ?? []
        let claimsEveryPage = patterns.allSatisfy { pattern in
            pattern.matchPattern.map { ($0.host == .any || ($0.scheme == .exactly(.file) && $0.host == .exactly(.empty))) && $0.path.text == "/*" } ?? false
        }
        if text != "*", text.contains("*"), !claimsEveryPage {
            differences.append("each `*` stays within the part of the address it is written in")
        }
        if patterns.contains(where: { if case .publicSuffix = $0.form { true } else { false } }) {
            differences.append("`.tld` is any ICANN public suffix (`com`, `co.uk`), never a private one such as `blogspot.com`")
        }
        let authority = text.range(of: "://").map { text[$0.upperBound...].prefix { $0 != "/" } }
        let portWritten = authority.map { $0.hasPrefix("[") ? $0.contains("]:") : $0.contains(":") } ?? false
        if !portWritten, let first = patterns.first?.matchPattern ?? patterns.first.flatMap(Self.baseOfPublicSuffix), first.port != nil {
            differences.append("with no port written, only the default port")
        }
        guard !differences.isEmpty else { return .asWritten }
        let forms = patterns.map(\.description).joined(separator: ", ")
        return .narrowed("read as \(forms): " + differences.joined(separator: "; "))
    }

    private static func baseOfPublicSuffix(_ pattern: SitePattern) -> MatchPattern? {
        if case .publicSuffix(let suffixPattern) = pattern.form { return suffixPattern.base }
        return nil
    }
}
