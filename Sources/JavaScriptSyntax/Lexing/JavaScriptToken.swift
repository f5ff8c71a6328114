/// One token of JavaScript source: what it is, where it is, and whether a line break precedes it.
///
/// Tokens cover the source without gaps except for whitespace and line terminators. Comments
/// are tokens too (``Kind/lineComment``, ``Kind/blockComment``, ``Kind/hashbang``), so a
/// colouring editor sees them; code that reasons about the program skips them with
/// ``isComment``.
///
/// ```swift
/// for token in try JavaScriptLexer.tokens(in: "x = /re/g.test(s) // check") {
///     print(token.kind, token.start.column)
/// }
/// ```
public struct JavaScriptToken: Hashable, Sendable {
    /// What a token is.
    public enum Kind: Hashable, Sendable {
        /// A name: a variable, a property name (`a.if` is a name), a contextual word such as
        /// `async`, `of`, `get` or `set`. May contain `\u` escapes and any Unicode letters.
        case identifier
        /// A reserved word used as one (`if`, `return`, `true`, `this`, `yield`, `await`, ...), and
        /// `let` where it declares. The contextual words (`async`, `static`, `of`, `get`, `set`)
        /// are identifiers.
        case keyword
        /// A private name, `#field`.
        case privateName
        /// An operator or punctuation mark (`?.`, `??=`, `=>`, `{`, ...).
        case punctuator
        /// A numeric literal, BigInt literals (`10n`) included.
        case number
        /// A string literal, quotes included.
        case string
        /// One piece of a template literal: the whole literal when it has no substitution,
        /// otherwise the piece from its opening backtick or from a substitution's `}` to the next
        /// `${` or to the closing backtick, as ECMAScript cuts them: a template with two
        /// substitutions is three pieces.
        case template
        /// A regular expression literal with its flags.
        case regularExpression
        /// A `//` comment, or an HTML-like comment (`<!--` anywhere, `-->` at the start of a
        /// line) as classic scripts allow. Does not include the line terminator.
        case lineComment
        /// A `/* */` comment.
        case blockComment
        /// A `#!` line at the very start of the source.
        case hashbang
        /// Text that is no token: an invalid character, or the rest of a construct that cannot
        /// be read (an unterminated regular expression). The lexer's error says why.
        case invalid
    }

    /// Where the token is, in UTF-16 code units from the start of the text that was read.
    public var range: Range<Int>
    /// Where the token starts.
    public var start: SourcePosition
    /// What the token is.
    public var kind: Kind
    /// Whether a line terminator comes between the previous token that is not a comment and this
    /// one (in a comment between them included), which is what automatic semicolon insertion
    /// looks at.
    public var isPrecededByLineBreak: Bool

    /// The reserved or contextual word this token spells, when it spells one without escapes.
    var word: Keyword?
    /// The punctuator, for ``Kind/punctuator`` tokens.
    var punctuator: Punctuator?

    init(kind: Kind, range: Range<Int>, start: SourcePosition, isPrecededByLineBreak: Bool, word: Keyword? = nil, punctuator: Punctuator? = nil) {
        self.kind = kind
        self.range = range
        self.start = start
        self.isPrecededByLineBreak = isPrecededByLineBreak
        self.word = word
        self.punctuator = punctuator
    }

    /// Whether the token is a comment (a hashbang line included), which a program ignores.
    public var isComment: Bool {
        switch kind {
        case .lineComment, .blockComment, .hashbang: true
        default: false
        }
    }

    /// The token's text in `source`, the text it was read from.
    ///
    /// - Parameter source: The text given to the lexer.
    /// - Returns: The characters of the token.
    public func text(in source: String) -> Substring {
        let lower = String.Index(utf16Offset: range.lowerBound, in: source)
        let upper = String.Index(utf16Offset: range.upperBound, in: source)
        return source[lower..<upper]
    }
}
