/// Something in a readable script that PageScript cannot honour.
///
/// Invalid rules and an unsupported `@run-at` stop the script from running automatically (and a
/// save with them is refused); an unsupported `@grant` is only reported, since the script may not
/// need the API everywhere.
public struct ScriptIssue: Hashable, Sendable, CustomStringConvertible {
    /// What the issue is.
    public enum Kind: Hashable, Sendable {
        /// A site rule that cannot be compiled.
        case invalidRule(SiteRule, MatchPatternError)
        /// A `@run-at` value other than document-start, document-end or document-idle.
        case unsupportedRunAt(String)
        /// A `@grant` for an API PageScript does not provide (it provides `none` only).
        case unsupportedGrant(String)
    }

    /// What the issue is.
    public let kind: Kind
    /// The 1-based line number.
    public let line: Int

    /// Whether the script may not run automatically, and may not be saved, until this is fixed.
    public var preventsAutomaticRunning: Bool {
        switch kind {
        case .invalidRule, .unsupportedRunAt: true
        case .unsupportedGrant: false
        }
    }

    /// "line N: what is wrong".
    public var description: String {
        let detail = switch kind {
        case .invalidRule(let rule, let error):
            "@\(rule.kind.key) \(error)"
        case .unsupportedRunAt(let value):
            "@run-at `\(value)` is not supported; use document-start, document-end or document-idle, or remove it to run the script on demand"
        case .unsupportedGrant(let value):
            "@grant \(value) is not provided by PageScript (it provides `none` only); the script may fail where it uses it"
        }
        return "line \(line): \(detail)"
    }
}
