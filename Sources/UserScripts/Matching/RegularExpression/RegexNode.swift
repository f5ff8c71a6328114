/// A regular expression from a userscript rule, parsed: the JavaScript syntax the managers accept
/// (`new RegExp(source, "i")`, Annex B's lenient forms included), minus what PageScript does not run.
///
/// Every character step is an ``ASCIISet`` already folded for case, since the managers always
/// match these rules case-insensitively.
indirect enum RegexNode: Hashable, Sendable {
    /// Matches the empty string.
    case empty
    /// One byte from the set.
    case characters(ASCIISet)
    /// Each part in turn.
    case sequence([RegexNode])
    /// Any one of the alternatives.
    case alternation([RegexNode])
    /// `(...)`, `(?:...)` or `(?<name>...)`: captures play no part in deciding whether a URL matches.
    case group(RegexNode)
    /// The node repeated from `minimum` to `maximum` times (`nil`: without limit).
    case repetition(RegexNode, minimum: Int, maximum: Int?)
    /// A zero-width test of the position.
    case assertion(RegexAssertion)
    /// `(?=...)`, or `(?!...)` when `negated`.
    case lookahead(RegexNode, negated: Bool)
}

/// `^`, `$`, `\b` and `\B`.
enum RegexAssertion: Hashable, Sendable {
    case start
    case end
    case wordBoundary
    case notWordBoundary
}

/// Why a regular expression cannot be used, as a phrase.
struct RegexSyntaxError: Error, Hashable, Sendable {
    /// Whether JavaScript itself refuses it (`true`), or it is valid but uses what PageScript does
    /// not run (lookbehind, back-references, some flags).
    let isInvalid: Bool
    let reason: String

    static func invalid(_ reason: String) -> RegexSyntaxError {
        RegexSyntaxError(isInvalid: true, reason: reason)
    }

    static func unsupported(_ reason: String) -> RegexSyntaxError {
        RegexSyntaxError(isInvalid: false, reason: reason)
    }
}
