/// What the tokenizer carries from the end of one line to the start of the next.
///
/// Keeping this small and `Equatable` is what makes highlighting incremental: each line is
/// tokenized from its entry state alone, so an edit only invalidates the lines after it.
struct LexerState: Hashable, Sendable {
    /// A nesting level: template text, or code (inside `${ }` or at top level) with the
    /// number of `{` opened in it.
    enum Context: Hashable, Sendable {
        case code(openBraces: Int)
        case template
    }

    /// Inside `/* … */`.
    var inBlockComment = false
    /// Innermost last; the bottom is always top-level code.
    var contexts: [Context] = [.code(openBraces: 0)]
    /// Whether a `/` here would start a regular expression rather than divide: true after an
    /// operator, `(`, `,`, a keyword such as `return`, or at the start of the script.
    var regexAllowed = true

    static let initial = LexerState()
}
