/// What a script threw, or why it did not parse.
public struct ScriptError: Sendable, Equatable, Error {
    /// The error's name (`SyntaxError`, `TypeError`, ...); `Uncaught` for a thrown non-Error value.
    public let name: String
    /// The error's message.
    public let message: String
    /// The 1-based line in the user's script, when the engine tells it.
    public let line: Int?
    /// The 1-based column in the user's script, when the engine tells it.
    public let column: Int?
    /// The engine's stack trace, when it gives one.
    public let stack: String?

    public init(name: String, message: String, line: Int? = nil, column: Int? = nil, stack: String? = nil) {
        self.name = name
        self.message = message
        self.line = line
        self.column = column
        self.stack = stack
    }
}
