/// An exception the script raised, with where it happened.
///
/// `line` and `column` are one-based and refer to the script as the editor sent it; the
/// column counts UTF-16 code units, as JavaScript engines do. The editor moves its cursor
/// there. (Chrome's DevTools protocol reports both zero-based: add one.)
///
/// ```swift
/// let thrown = ScriptException(name: "TypeError", message: "x is null", line: 3, column: 7)
/// ```
public struct ScriptException: Hashable, Sendable {
    /// The error's constructor name, such as `TypeError`.
    public var name: String
    /// The error's message.
    public var message: String
    /// The one-based line, when known.
    public var line: Int?
    /// The one-based column in UTF-16 code units, when known.
    public var column: Int?
    /// The stack trace as the engine wrote it, when it gave one.
    public var stack: String?

    /// Creates an error description.
    public init(name: String, message: String, line: Int? = nil, column: Int? = nil, stack: String? = nil) {
        self.name = name
        self.message = message
        self.line = line
        self.column = column
        self.stack = stack
    }
}
