/// One `@match`, `@exclude-match`, `@include` or `@exclude` line, compiled.
///
/// `@match` and `@exclude-match` hold match patterns. `@include` and `@exclude` hold the globs of
/// older userscript managers and are converted to match patterns only where that is exact (see
/// the matching rules, rule 10); a rule that cannot be compiled carries its ``error`` instead.
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

    /// The key the rule was written with.
    public let kind: Kind
    /// The value as written.
    public let text: String
    /// The 1-based line number in the file.
    public let line: Int
    /// The compiled patterns: one for `@match`, possibly several for an `@include` glob; empty on error.
    public let patterns: [MatchPattern]
    /// Why the rule could not be compiled, or `nil`.
    public let error: MatchPatternError?

    init(kind: Kind, text: String, line: Int) {
        self.kind = kind
        self.text = text
        self.line = line
        do {
            switch kind {
            case .match, .excludeMatch:
                patterns = [try MatchPattern.parse(text, suggestingFixes: true)]
            case .include, .exclude:
                patterns = try IncludeGlob.strictPatterns(for: text)
            }
            error = nil
        } catch {
            patterns = []
            self.error = error
        }
    }

    /// `@match *://example.com/*` as written.
    public var description: String { "@\(kind.key) \(text)" }
}
