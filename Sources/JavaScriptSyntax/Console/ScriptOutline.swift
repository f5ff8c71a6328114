/// One reading of a script: its items at the top level (or inside its outermost braces), and
/// the facts about `await` and `return` outside any function.
struct ScriptOutline: Sendable {
    /// The items at ``depth``.
    var items: [OutlineItem] = []
    /// Which nesting depth the items are at: 0 for the top level, 1 for the inside of an object
    /// literal that is the whole input.
    var depth: Int
    /// The kind of the outermost context, when the input opens one at its first token.
    var outermostKind: ContextKind?
    /// Where the hashbang line starts (0, or 1 after a byte order mark).
    var hashbangOffset: Int?
    /// The first `await` (in `for await` too) outside any function, arrow function or class.
    var topLevelAwait: SourcePosition?
    /// The first `return` outside any function.
    var topLevelReturn: SourcePosition?
    /// The expression that `return` returns, when it has one on its line.
    var topLevelReturnValue: Range<Int>?
    /// The lexer's first error.
    var error: JavaScriptSyntaxError?

    /// Reads `units` from `state` and outlines it at `depth`.
    init(units: [UInt16], startingIn state: LexerState, depth: Int) {
        self.depth = depth
        var lexer = JavaScriptLexer(units: units, startingIn: state, endsAtLineBreak: false)
        var depthBefore = 0
        var isFirstToken = true
        var arrows = ConciseArrowBodies()
        var returnValue = ReturnValueReader()
        while let token = lexer.next() {
            if token.isComment {
                if token.kind == .hashbang { hashbangOffset = token.range.lowerBound }
                continue
            }
            let depthAfter = lexer.state.contexts.count
            if depthBefore == depth {
                if depthAfter > depth {
                    let kind = lexer.state.contexts[depth].kind
                    items.append(OutlineItem(shape: .group(kind), start: token.start, end: token.range.upperBound, isPrecededByLineBreak: token.isPrecededByLineBreak))
                } else if depthAfter == depth {
                    items.append(OutlineItem(shape: .token(token.kind), word: token.word, punctuator: token.punctuator, start: token.start, end: token.range.upperBound, isPrecededByLineBreak: token.isPrecededByLineBreak))
                }
            } else if depthBefore > depth, depthAfter <= depth, !items.isEmpty {
                items[items.count - 1].end = token.range.upperBound
            }
            if isFirstToken, depthAfter > 0 {
                outermostKind = lexer.state.contexts[0].kind
            }
            isFirstToken = false
            arrows.note(token, depthBefore: depthBefore, depthAfter: depthAfter)
            returnValue.note(token, depthBefore: depthBefore, depthAfter: depthAfter)
            if token.kind == .keyword, lexer.state.functionDepth == 0 {
                if token.word == .await, topLevelAwait == nil, !arrows.isInside {
                    topLevelAwait = token.start
                } else if token.word == .return, topLevelReturn == nil {
                    topLevelReturn = token.start
                    returnValue.start(atDepth: depthAfter)
                }
            }
            depthBefore = depthAfter
        }
        error = lexer.firstError
        topLevelReturnValue = returnValue.range
    }
}

/// Finds the expression a top-level `return` returns on its own line (`return document.title;`
/// gives `document.title`), for the error message's suggestion.
struct ReturnValueReader: Sendable {
    private var depth: Int?
    private(set) var range: Range<Int>?

    mutating func start(atDepth depth: Int) {
        self.depth = depth
    }

    /// Called for every token after the `return` (comments are never passed).
    mutating func note(_ token: JavaScriptToken, depthBefore: Int, depthAfter: Int) {
        guard let depth else { return }
        if token.isPrecededByLineBreak || depthAfter < depth || (depthBefore == depth && token.punctuator == .semicolon) {
            if depthBefore > depth {
                // The value goes on to the next line inside brackets: it cannot be shown as one line.
                range = nil
            }
            self.depth = nil
            return
        }
        range = (range?.lowerBound ?? token.range.lowerBound)..<token.range.upperBound
    }
}

/// The concise bodies of arrow functions (`x => await x`) that are open: an `await` inside one
/// belongs to the arrow function, not to the top level.
///
/// A concise body ends at a `,`, `;` or `:` of its own depth, at the bracket that closes the
/// depth, and at a new line that cannot continue it. Ending one too early only makes an `await`
/// look top-level, which is harmless (the caller wraps the code in an async function); ending
/// one too late would hide a top-level `await`, so the rules err on the early side.
struct ConciseArrowBodies: Sendable {
    private var depths: [Int] = []
    private var arrowDepth: Int?
    private var previousEndsOperand = false

    var isInside: Bool { !depths.isEmpty }

    mutating func note(_ token: JavaScriptToken, depthBefore: Int, depthAfter: Int) {
        if depths.isEmpty, arrowDepth == nil, token.punctuator != .arrow {
            return
        }
        let item = OutlineItem(shape: .token(token.kind), word: token.word, punctuator: token.punctuator, start: token.start, end: token.range.upperBound, isPrecededByLineBreak: token.isPrecededByLineBreak)
        if let depth = arrowDepth {
            arrowDepth = nil
            if token.punctuator != .openBrace {
                depths.append(depth)
            }
        }
        if depthAfter < depthBefore {
            depths.removeAll { $0 > depthAfter }
        }
        if token.isPrecededByLineBreak, previousEndsOperand, !item.continuesExpression(afterArrowBody: false) {
            depths.removeAll { $0 >= depthBefore }
        }
        switch token.punctuator {
        case .comma?, .semicolon?, .colon?:
            depths.removeAll { $0 >= depthAfter }
        case .arrow?:
            arrowDepth = depthAfter
        default:
            break
        }
        switch token.punctuator {
        case .closeParenthesis?, .closeBracket?, .closeBrace?:
            previousEndsOperand = true
        default:
            previousEndsOperand = item.endsOperand(afterOperand: true)
        }
    }
}
