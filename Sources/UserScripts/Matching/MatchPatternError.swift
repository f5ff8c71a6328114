/// Why a match pattern (or an `@include` rule) was refused, with a corrected pattern when one
/// can be guessed.
///
/// ```swift
/// do { _ = try MatchPattern("www.google.*") } catch {
///     error.reason       // "it has no scheme: a match pattern starts with *://, http://, https:// or file://"
///     error.suggestion   // "*://*.google.com/*"
/// }
/// ```
public struct MatchPatternError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The pattern as written.
    public let pattern: String
    /// What is wrong with it, as a sentence fragment.
    public let reason: String
    /// A valid pattern that is probably what was meant, or `nil` when there is no safe guess.
    public let suggestion: String?

    /// Describes why `pattern` was refused.
    public init(pattern: String, reason: String, suggestion: String? = nil) {
        self.pattern = pattern
        self.reason = reason
        self.suggestion = suggestion
    }

    /// "`pattern` is refused: reason. Did you mean `suggestion`?"
    public var description: String {
        var text = "`\(pattern)` is refused: \(reason)"
        if let suggestion { text += ". Did you mean `\(suggestion)`?" }
        return text
    }
}
