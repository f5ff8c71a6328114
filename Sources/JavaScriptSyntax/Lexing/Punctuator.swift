/// ECMAScript's punctuators, plus `@` for decorators (accepted so that code for engines that
/// support them is never refused here).
enum Punctuator: UInt8, Hashable, Sendable {
    case openBrace, closeBrace, openParenthesis, closeParenthesis, openBracket, closeBracket
    case dot, ellipsis, semicolon, comma, questionMark, optionalChaining, colon, arrow, at
    case less, greater, lessEqual, greaterEqual, equal, notEqual, strictEqual, strictNotEqual
    case plus, minus, star, percent, starStar, slash, increment, decrement
    case shiftLeft, shiftRight, unsignedShiftRight, ampersand, bar, caret, exclamation, tilde
    case and, or, nullish
    case assign, plusAssign, minusAssign, starAssign, percentAssign, starStarAssign, slashAssign
    case shiftLeftAssign, shiftRightAssign, unsignedShiftRightAssign
    case ampersandAssign, barAssign, caretAssign, andAssign, orAssign, nullishAssign

    /// Whether, after a complete operand, this punctuator continues the expression on a new line
    /// (so no semicolon is inserted before it): binary and assignment operators, member access,
    /// calls and indexing, `?`, `:`, `,` and `=>`.
    var continuesExpression: Bool {
        switch self {
        case .openBrace, .closeBrace, .closeParenthesis, .closeBracket, .semicolon, .exclamation, .tilde,
             .increment, .decrement, .ellipsis, .at:
            false
        default:
            true
        }
    }
}
