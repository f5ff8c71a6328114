/// What a span of JavaScript is, for colouring.
enum SyntaxKind: Hashable, Sendable {
    case plain
    case keyword
    case literal
    case string
    case template
    case number
    case comment
    case regex
}
