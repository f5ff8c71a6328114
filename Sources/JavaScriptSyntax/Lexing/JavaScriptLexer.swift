/// Reads JavaScript (ECMAScript 2024, classic scripts) into tokens, exact about where each
/// token starts and ends.
///
/// The lexer knows every token of the language: identifiers with Unicode letters and `\u`
/// escapes, private names, numbers in every base with separators and BigInt suffixes, strings
/// with escapes and line continuations, template literals with substitutions nested to any depth,
/// regular expression literals, every comment form (`//`, `/* */`, a `#!` first line, and the
/// HTML-like `<!--` and `-->` that classic scripts allow) and every punctuator. Whether a `/`
/// starts a regular expression or divides is decided as a parser would, from what comes before
/// it: after `)` it depends on whether the parentheses were an `if (...)`, `while (...)`,
/// `for (...)` or `with (...)` condition; after `}` on whether the braces were a block, a
/// function body or an object literal.
///
/// Reading never stops at an error: the first error is kept in ``firstError`` and reading goes
/// on, so an editor can colour the whole text. Errors are only those that are certain (see
/// ``JavaScriptSyntaxError``).
///
/// Read a whole script at once:
///
/// ```swift
/// let tokens = try JavaScriptLexer.tokens(in: source)
/// ```
///
/// or token by token:
///
/// ```swift
/// var lexer = JavaScriptLexer(source)
/// while let token = lexer.next() {
///     print(token.kind, token.text(in: source))
/// }
/// if let error = lexer.firstError { print(error) }
/// ```
///
/// or one line at a time, carrying a ``LexerState`` from line to line, for syntax colouring:
/// ``tokens(inLine:startingIn:)``.
public struct JavaScriptLexer: Sendable {
    /// The tokens of one line and the state the next line starts in.
    public struct LineTokens: Hashable, Sendable {
        /// The line's tokens; positions are on line 1, offsets from the start of the line.
        public var tokens: [JavaScriptToken]
        /// The state to read the next line from.
        public var endState: LexerState
        /// The first certain error on this line, if any.
        public var error: JavaScriptSyntaxError?
    }

    let text: [UInt16]
    let keywords = KeywordTable.shared
    var index = 0
    let end: Int
    /// The end of the text is the end of a line that the next call continues, not of the input.
    let endsAtLineBreak: Bool
    var line = 1
    var lineStart = 0
    /// The state after the last token read.
    public internal(set) var state: LexerState
    /// The first certain error found so far, if any.
    public internal(set) var firstError: JavaScriptSyntaxError?
    /// Where each open context of ``state`` was opened, when it was opened in this text.
    var openerPositions: [SourcePosition?]
    var reachedEnd = false

    /// Creates a lexer for a whole script.
    ///
    /// - Parameters:
    ///   - source: The script.
    ///   - state: The state to start in; ``LexerState/initial`` for a script.
    public init(_ source: String, startingIn state: LexerState = .initial) {
        self.init(units: CodeUnit.utf16(source), startingIn: state, endsAtLineBreak: false)
    }

    init(units: [UInt16], startingIn state: LexerState, endsAtLineBreak: Bool) {
        self.text = units
        self.end = units.count
        self.endsAtLineBreak = endsAtLineBreak
        self.state = state
        self.openerPositions = Array(repeating: nil, count: state.contexts.count)
    }

    /// Reads a whole script.
    ///
    /// - Parameter source: The script.
    /// - Returns: Every token, comments included.
    /// - Throws: The first certain ``JavaScriptSyntaxError``.
    public static func tokens(in source: String) throws(JavaScriptSyntaxError) -> [JavaScriptToken] {
        var lexer = JavaScriptLexer(source)
        var tokens: [JavaScriptToken] = []
        while let token = lexer.next() {
            tokens.append(token)
        }
        if let error = lexer.firstError { throw error }
        return tokens
    }

    /// Reads one line that starts in `state`, for colouring a line at a time.
    ///
    /// The end of `line` is taken as a line break, not as the end of the input: a block comment or
    /// a template literal that is still open continues in ``LineTokens/endState``, and so does a
    /// string whose line ends with a backslash. Pass the line without its line terminator.
    ///
    /// ```swift
    /// var state = LexerState.initial
    /// for line in lines {
    ///     let result = JavaScriptLexer.tokens(inLine: line, startingIn: state)
    ///     colour(line, result.tokens)
    ///     state = result.endState
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - line: One line of the script, without its line terminator.
    ///   - state: The end state of the line before, or ``LexerState/initial`` for the first line.
    /// - Returns: The line's tokens, the state at its end and its first error.
    public static func tokens(inLine line: String, startingIn state: LexerState) -> LineTokens {
        var lexer = JavaScriptLexer(units: CodeUnit.utf16(line), startingIn: state, endsAtLineBreak: true)
        var tokens: [JavaScriptToken] = []
        while let token = lexer.next() {
            tokens.append(token)
        }
        return LineTokens(tokens: tokens, endState: lexer.state, error: lexer.firstError)
    }

    /// Reads the next token.
    ///
    /// - Returns: The next token, or `nil` at the end of the text.
    public mutating func next() -> JavaScriptToken? {
        if reachedEnd { return nil }
        switch state.continuation {
        case .blockComment:
            if index < end { return scanBlockComment(start: index, bodyStart: index) }
        case .string(let quote):
            if index < end { return scanString(quote: quote, start: index, bodyStart: index) }
            if index == 0 {
                // An empty line cannot continue the string: it ends at this line break.
                state.continuation = .none
                report(.unterminatedString, "Unterminated string literal", at: position(at: index))
            }
        case .none:
            break
        }
        if state.innermost.contains(.template), index < end {
            return scanTemplateText(start: index, from: index)
        }
        if state.atInputStart {
            state.atInputStart = false
            if let hashbang = scanHashbang() { return hashbang }
        }
        skipWhitespace()
        guard index < end else {
            finish()
            return nil
        }
        return scanToken()
    }

    // MARK: - Positions and errors

    @inline(__always)
    func position(at offset: Int) -> SourcePosition {
        SourcePosition(line: line, column: offset - lineStart + 1, offset: offset)
    }

    mutating func report(_ kind: JavaScriptSyntaxError.Kind, _ message: String, at position: SourcePosition) {
        if firstError == nil {
            firstError = JavaScriptSyntaxError(kind: kind, message: message, position: position)
        }
    }

    /// Steps over the line terminator at `offset` (a CR LF pair as one) and starts a new line.
    mutating func passLineTerminator(at offset: Int) -> Int {
        var next = offset + 1
        if text[offset] == CodeUnit.carriageReturn, next < end, text[next] == CodeUnit.lineFeed {
            next += 1
        }
        line += 1
        lineStart = next
        return next
    }

    @inline(__always)
    func peek(_ offset: Int) -> UInt16? {
        offset < end ? text[offset] : nil
    }

    private mutating func finish() {
        reachedEnd = true
        if endsAtLineBreak {
            state.lineBreakPending = true
            state.onlyTriviaOnLine = true
            return
        }
        if let open = state.contexts.indices.last {
            let kind = state.contexts[open].kind
            let openedAt = openerPositions[open] ?? position(at: end)
            switch kind {
            case .template:
                report(.unterminatedTemplate, "Unterminated template literal", at: openedAt)
            default:
                report(.unexpectedEndOfInput, "Unexpected end of input: '\(kind.opener)' is never closed by '\(kind.closer)'", at: openedAt)
            }
        }
    }

    // MARK: - Whitespace and comments

    private mutating func skipWhitespace() {
        while index < end {
            let unit = text[index]
            if CodeUnit.isWhitespace(unit) {
                index += 1
            } else if CodeUnit.isLineTerminator(unit) {
                index = passLineTerminator(at: index)
                state.lineBreakPending = true
                state.onlyTriviaOnLine = true
            } else {
                return
            }
        }
    }

    private mutating func scanHashbang() -> JavaScriptToken? {
        var start = index
        if peek(start) == 0xFEFF { start += 1 }
        guard peek(start) == 0x23, peek(start + 1) == 0x21 else { return nil }
        let token = makeComment(.hashbang, start: start, position: position(at: start), upTo: lineEnd(from: start + 2))
        return token
    }

    func lineEnd(from offset: Int) -> Int {
        var cursor = offset
        while cursor < end, !CodeUnit.isLineTerminator(text[cursor]) {
            cursor += 1
        }
        return cursor
    }

    mutating func makeComment(_ kind: JavaScriptToken.Kind, start: Int, position: SourcePosition, upTo stop: Int) -> JavaScriptToken {
        index = stop
        return JavaScriptToken(kind: kind, range: start..<stop, start: position, isPrecededByLineBreak: state.lineBreakPending)
    }

    /// Reads a block comment from `bodyStart` (just after `/*`, or the start of a line inside it).
    mutating func scanBlockComment(start: Int, bodyStart: Int) -> JavaScriptToken {
        let startPosition = position(at: start)
        let precededByLineBreak = state.lineBreakPending
        var cursor = bodyStart
        var sawLineBreak = false
        while cursor < end {
            let unit = text[cursor]
            if unit == 0x2A, cursor + 1 < end, text[cursor + 1] == 0x2F {
                index = cursor + 2
                state.continuation = .none
                if sawLineBreak {
                    state.lineBreakPending = true
                    state.onlyTriviaOnLine = true
                }
                return JavaScriptToken(kind: .blockComment, range: start..<index, start: startPosition, isPrecededByLineBreak: precededByLineBreak)
            }
            if CodeUnit.isLineTerminator(unit) {
                cursor = passLineTerminator(at: cursor)
                sawLineBreak = true
            } else {
                cursor += 1
            }
        }
        index = end
        if sawLineBreak {
            state.lineBreakPending = true
        }
        if endsAtLineBreak {
            state.continuation = .blockComment
        } else {
            state.continuation = .none
            report(.unterminatedComment, "Unterminated comment: '/*' has no closing '*/'", at: startPosition)
        }
        return JavaScriptToken(kind: .blockComment, range: start..<end, start: startPosition, isPrecededByLineBreak: precededByLineBreak)
    }
}
