/// What a span of JavaScript is, for colouring.
enum SyntaxKind: Hashable, Sendable {
    case plain
    case keyword
    /// `true`, `false`, `null`, `undefined`, `NaN`, `Infinity`.
    case literal
    case string
    case template
    case number
    case comment
    case regex
    /// Text the lexer cannot read as JavaScript (a stray character, an unterminated regular
    /// expression).
    case invalid
}
