/// What a script threw, or why it did not parse.
public struct ScriptError: Sendable, Equatable, Error {
    /// The error's name (`SyntaxError`, `TypeError`, ...); `Uncaught` for a thrown non-Error value.
    public let name: String
    /// The error's message, as text: trailing line breaks are removed.
    public let message: String
    /// The 1-based line in the user's script, when the engine tells it.
    public let line: Int?
    /// The 1-based column in the user's script, when the engine tells it.
    public let column: Int?
    /// The stack trace, when the engine gives one: a line per frame, innermost first, in the
    /// user's lines and columns (`f (line 2, column 22)`) or the page's (`load (https://…/app.js:10:4)`),
    /// without PageScript's own frames. WebKit places only the innermost of the script's frames.
    public let stack: String?

    public init(name: String, message: String, line: Int? = nil, column: Int? = nil, stack: String? = nil) {
        self.name = name
        self.message = Self.trimmed(message)
        self.line = line
        self.column = column
        self.stack = stack
    }

    /// `text` without the line breaks and spaces engines leave at its end (WebKit's CSP message
    /// ends with one).
    static func trimmed(_ text: String) -> String {
        var text = Substring(text)
        while let last = text.last, last.isNewline || last == " " || last == "\t" { text = text.dropLast() }
        return String(text)
    }
}
