/// What the lexer knows at a point of the source that decides how the rest is read.
///
/// The state is a value: copy it at the end of a line and start the next line from it with
/// ``JavaScriptLexer/tokens(inLine:startingIn:)``, and the next line is read as it would be in the
/// whole text: inside a block comment, inside a template literal (however deeply nested in
/// `${ }`), after a string's line continuation, and with the brackets still open and what they
/// are, which decides whether a `/` starts a regular expression. Two states are equal when the
/// rest of the text would be read the same way from both, so an editor that keeps each line's
/// start state can stop re-reading after an edit as soon as a line's new end state equals the
/// one it had.
///
/// ```swift
/// var state = LexerState.initial
/// for line in ["let s = `a${", "  `b${1}`", "}c`"] {
///     let result = JavaScriptLexer.tokens(inLine: line, startingIn: state)
///     state = result.endState
/// }
/// print(state.isInTemplate)  // false
/// ```
public struct LexerState: Hashable, Sendable {
    /// The state at the start of a script.
    public static let initial = LexerState()

    var contexts: [SyntaxContext] = [] {
        didSet { innermost = ContextTraits(contexts.last?.kind) }
    }
    /// What the innermost context is, kept beside ``contexts`` because it is asked for every token.
    private(set) var innermost = ContextTraits(nil)
    var level = SyntaxLevel()
    var continuation: Continuation = .none
    /// A line terminator has been passed since the last token that is not a comment.
    var lineBreakPending = false
    /// The current line holds only whitespace and comments so far (so `-->` starts a comment).
    var onlyTriviaOnLine = true
    /// Nothing has been read yet (so `#!` starts a hashbang line).
    var atInputStart = true
    /// How many of ``contexts`` are function bodies or class bodies.
    var functionDepth = 0

    /// Whether the text continues inside a `/* */` comment.
    public var isInBlockComment: Bool {
        continuation == .blockComment
    }

    /// Whether the text continues inside the literal text of a template (not inside one of its
    /// `${ }` substitutions).
    public var isInTemplate: Bool {
        innermost.contains(.template)
    }

    /// Whether the text continues inside a string literal, after a backslash that ended a line.
    public var isInString: Bool {
        if case .string = continuation { return true }
        return false
    }

    /// How many brackets (`(`, `[`, `{`, `${`) and template literals are open.
    public var nestingDepth: Int {
        contexts.count
    }
}

/// A construct the lexer is inside of, at the end of a chunk of text.
enum Continuation: Hashable, Sendable {
    case none
    case blockComment
    /// A string with this quote, continued after a backslash at the end of a line.
    case string(quote: UInt16)
}

/// What kind of function a body belongs to, which decides what may follow its `}`.
enum FunctionRole: UInt8, Hashable, Sendable {
    /// `function f() {}` as a statement: a statement ends after its `}`.
    case declaration
    /// `function () {}` inside an expression: an operand ends at its `}`.
    case expression
    /// The block body of an arrow function.
    case arrow
    /// A method of an object literal or a class.
    case method
    /// A class's `static { }` block.
    case staticBlock
}

/// The keywords whose parenthesised part is followed by a statement or a block.
enum ConditionKeyword: UInt8, Hashable, Sendable {
    case `if`, `while`, `for`, `with`, `switch`, `catch`
}

/// What an open bracket or template is.
enum ContextKind: Hashable, Sendable {
    case parenthesis(ParenthesisRole)
    /// `[`: an array, an index, or (`isComputedKey`) the computed name of a property.
    case bracket(isComputedKey: Bool)
    case brace(BraceRole)
    /// `${` inside a template literal.
    case substitution
    /// The literal text of a template, between its backtick and the next `${` or backtick.
    case template

    /// The closing character this context expects, for messages.
    var closer: String {
        switch self {
        case .parenthesis: ")"
        case .bracket: "]"
        case .brace, .substitution: "}"
        case .template: "`"
        }
    }

    /// The opening characters of this context, for messages.
    var opener: String {
        switch self {
        case .parenthesis: "("
        case .bracket: "["
        case .brace: "{"
        case .substitution: "${"
        case .template: "`"
        }
    }
}

/// The facts about the innermost context that reading asks for, as bits.
struct ContextTraits: OptionSet, Hashable, Sendable {
    let rawValue: UInt8

    init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// Statements are read directly inside: the top level, a block, a function body.
    static let holdsStatements = ContextTraits(rawValue: 1)
    static let objectLiteral = ContextTraits(rawValue: 2)
    static let classBody = ContextTraits(rawValue: 4)
    /// The parentheses of a `for`.
    static let forHeader = ContextTraits(rawValue: 8)
    /// The literal text of a template.
    static let template = ContextTraits(rawValue: 16)
    /// A `${ }` substitution.
    static let substitution = ContextTraits(rawValue: 32)

    /// The traits of `kind`, or of the top level for `nil`.
    init(_ kind: ContextKind?) {
        switch kind {
        case nil, .brace(.block)?, .brace(.function)?: self = .holdsStatements
        case .brace(.object)?: self = .objectLiteral
        case .brace(.classBody)?: self = .classBody
        case .parenthesis(.condition(.for))?: self = .forHeader
        case .template?: self = .template
        case .substitution?: self = .substitution
        case .parenthesis?, .bracket?: self = []
        }
    }
}

/// What a `(` opens.
enum ParenthesisRole: Hashable, Sendable {
    /// After `if`, `while`, `for`, `with`, `switch` or `catch`: a statement follows the `)`.
    case condition(ConditionKeyword)
    /// A function's parameters: its body follows the `)`.
    case parameters(FunctionRole)
    /// A call's arguments, a grouping, or an arrow function's parameters: an operand ends at `)`.
    case expression
}

/// What a `{` opens.
enum BraceRole: Hashable, Sendable {
    /// A block statement (also a `switch` body, `try`, `catch` and `finally` blocks).
    case block
    case function(FunctionRole)
    case classBody(isDeclaration: Bool)
    /// An object literal or an object destructuring pattern.
    case object
}

/// An open context and the state of the level around it, restored when it closes.
struct SyntaxContext: Hashable, Sendable {
    var kind: ContextKind
    var saved: SyntaxLevel
}

/// Where in a property definition of an object literal or a class body the lexer is.
enum PropertyPosition: Hashable, Sendable {
    /// Not inside an object literal or class body.
    case none
    /// Where a property name (or a modifier such as `get`, `static`, `async`, `*`) comes.
    case key
    /// After a name: `(` starts a method, `:` or `=` a value; `isStatic` when the name was
    /// `static`, so that `{` starts a static block.
    case afterKey(isStatic: Bool)
    /// In a value or a field's initializer: an ordinary expression.
    case value
}

/// What the previous token leaves the parser expecting.
enum ExpectedNext: Hashable, Sendable {
    /// A statement: `{` is a block, `function` a declaration, `/` a regular expression.
    case statement
    /// An operand: `{` is an object literal, `/` a regular expression.
    case expression
    /// An operator: a complete operand came last, `/` divides.
    case `operator`
    /// After `=>`: `{` is the arrow's body.
    case arrowBody
    /// After the `}` of an arrow's body: only a new line or a comma can follow.
    case afterArrowBody
    /// After `return`, `throw`, `break`, `continue` or `yield`: as ``expression``, but a line
    /// break ends the statement.
    case restricted
    /// After a function's parameters: `{` is its body.
    case functionBody(FunctionRole)
}

/// The state of one nesting level: what the last token leaves expected, and the keywords whose
/// effect reaches further than the next token.
struct SyntaxLevel: Hashable, Sendable {
    var expected: ExpectedNext = .statement
    /// The expectation came from a `}` or a contextual word, where the lexer may be wrong, so a
    /// regular expression that does not end on its line is read as a division instead.
    var isGuess = false
    /// After `function` (and its `*` and name): the next `(` opens its parameters.
    var pendingFunction: FunctionRole?
    /// After `class`: the next `{` on this level opens its body (`isDeclaration` when the class
    /// is a statement).
    var pendingClass: Bool?
    /// After `if`, `for`, ...: the next `(` opens its condition.
    var pendingCondition: ConditionKeyword?
    /// `async` began a statement on this line, so `function` after it is a declaration.
    var asyncStartsStatement = false
    /// After `.` or `?.`: the next word is a property name.
    var isMemberName = false
    /// How many `?` of conditional expressions wait for their `:`.
    var openConditionals = 0
    var property: PropertyPosition = .none
}
