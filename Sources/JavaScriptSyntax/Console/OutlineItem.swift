/// A token, or a whole bracketed group, at one nesting depth of a script: what the statement
/// scanner walks over, since the contents of brackets never decide where a statement of the
/// level around them ends.
struct OutlineItem: Sendable {
    enum Shape: Sendable {
        /// A single token.
        case token(JavaScriptToken.Kind)
        /// A bracketed group (or a template literal with substitutions), opener to closer.
        case group(ContextKind)
    }

    var shape: Shape
    var word: Keyword?
    var punctuator: Punctuator?
    var start: SourcePosition
    /// The offset just after the item's last unit.
    var end: Int
    var isPrecededByLineBreak: Bool

    var isArrowBody: Bool {
        if case .group(.brace(.function(.arrow))) = shape { return true }
        return false
    }

    var isToken: Bool {
        if case .token = shape { return true }
        return false
    }

    func isPunctuator(_ punctuator: Punctuator) -> Bool {
        isToken && self.punctuator == punctuator
    }

    func isWord(_ word: Keyword) -> Bool {
        isToken && self.word == word
    }

    var isParenthesisGroup: Bool {
        if case .group(.parenthesis) = shape { return true }
        return false
    }

    var isBraceGroup: Bool {
        if case .group(.brace) = shape { return true }
        return false
    }

    var isBracketGroup: Bool {
        if case .group(.bracket) = shape { return true }
        return false
    }

    /// A name token: an identifier, or a word that is a keyword elsewhere.
    var isName: Bool {
        switch shape {
        case .token(.identifier), .token(.keyword): true
        default: false
        }
    }

    /// Whether an expression can end with this item, given whether the item before it ended one
    /// (which tells a postfix `++` from a prefix one).
    func endsOperand(afterOperand previousEndsOperand: Bool) -> Bool {
        switch shape {
        case .group:
            return true
        case .token(.identifier), .token(.number), .token(.string), .token(.template), .token(.regularExpression), .token(.privateName):
            return true
        case .token(.keyword):
            return word?.isOperand ?? false
        case .token(.punctuator):
            return (punctuator == .increment || punctuator == .decrement) && previousEndsOperand && !isPrecededByLineBreak
        case .token:
            return false
        }
    }

    /// Whether this item, at the start of a new line, continues an expression that the item
    /// before ended, so that no semicolon is inserted before it (ECMAScript's automatic semicolon
    /// insertion inserts one only before a token the grammar does not allow there).
    ///
    /// - Parameter afterArrowBody: The item before is the block body of an arrow function, which
    ///   cannot be called, indexed or operated on without parentheses: only a `,` or the `:` of
    ///   a conditional can follow it.
    func continuesExpression(afterArrowBody: Bool) -> Bool {
        if afterArrowBody {
            return isPunctuator(.comma) || isPunctuator(.colon)
        }
        switch shape {
        case .group(.parenthesis), .group(.bracket), .group(.template), .token(.template):
            return true
        case .group:
            return false
        case .token(.punctuator):
            return punctuator?.continuesExpression ?? false
        case .token(.keyword):
            return word == .in || word == .instanceof
        case .token:
            return false
        }
    }
}
