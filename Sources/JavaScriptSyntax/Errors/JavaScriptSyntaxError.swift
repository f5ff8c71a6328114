/// A syntax error that is certain without running the code, with its exact position.
///
/// ``JavaScriptLexer`` and ``ConsoleRewrite`` report only what every engine refuses: an
/// unterminated string, template, comment or regular expression, a bracket closed by the wrong
/// kind or never closed, a character that cannot start any token, a malformed number or escape,
/// and (in console mode) `return` outside a function. Anything they cannot be sure of is left to
/// the engine, which remains the authority. The messages follow the engines' wording
/// ("Unexpected token ')'", "Unterminated string literal") and add what would help fix the code.
///
/// ```swift
/// do {
///     _ = try JavaScriptLexer.tokens(in: "let s = 'abc")
/// } catch {
///     print(error)  // SyntaxError: Unterminated string literal (line 1, column 9)
/// }
/// ```
public struct JavaScriptSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong, for callers that react to some errors differently.
    public enum Kind: Hashable, Sendable {
        /// A string literal reaches the end of its line (or of the input) without its closing quote.
        case unterminatedString
        /// A template literal reaches the end of the input without its closing backtick.
        case unterminatedTemplate
        /// A `/*` comment reaches the end of the input without `*/`.
        case unterminatedComment
        /// A regular expression literal reaches the end of its line without its closing `/`.
        case unterminatedRegularExpression
        /// A closing bracket that closes nothing, or that does not match the innermost open one.
        case unexpectedToken
        /// The input ends while a bracket (or a template substitution) is still open; the position
        /// is the opening bracket's.
        case unexpectedEndOfInput
        /// A character that cannot start any token here (a typographic quote, a stray `#`, ...).
        case invalidCharacter
        /// A malformed numeric literal (`0x`, `1__0`, `08n`, a letter right after a number, ...).
        case invalidNumber
        /// A malformed `\x` or `\u` escape in a string or an identifier.
        case invalidEscape
        /// `return` outside any function, in ``ConsoleRewrite/Mode/console`` mode.
        case illegalReturn
    }

    /// What is wrong.
    public var kind: Kind
    /// The message in plain words, without the `SyntaxError: ` prefix.
    public var message: String
    /// Where the problem is in the text that was read.
    public var position: SourcePosition

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - kind: What is wrong.
    ///   - message: The message in plain words.
    ///   - position: Where the problem is.
    public init(kind: Kind, message: String, position: SourcePosition) {
        self.kind = kind
        self.message = message
        self.position = position
    }

    /// The line of ``position``, from 1.
    public var line: Int { position.line }

    /// The column of ``position`` in UTF-16 code units, from 1.
    public var column: Int { position.column }

    /// `SyntaxError: MESSAGE (line L, column C)`.
    public var description: String {
        "SyntaxError: \(message) (\(position))"
    }
}
