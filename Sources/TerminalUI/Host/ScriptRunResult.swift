/// What running a script produced: its value, what it logged, and the exception it raised.
///
/// All text in here comes from the page and is escaped before the editor draws it.
public struct ScriptRunResult: Hashable, Sendable {
    /// The script's completion value as JSON text, or `nil` when it was `undefined`.
    public var valueJSON: String?
    /// Console messages in the order they were logged.
    public var console: [ConsoleLine]
    /// The uncaught exception, if the script threw.
    public var exception: ScriptException?

    /// Creates a result.
    public init(valueJSON: String? = nil, console: [ConsoleLine] = [], exception: ScriptException? = nil) {
        self.valueJSON = valueJSON
        self.console = console
        self.exception = exception
    }
}

/// One console message the script logged.
public struct ConsoleLine: Hashable, Sendable {
    /// The console method that produced the message.
    public enum Level: String, Hashable, Sendable, CaseIterable {
        /// `console.log`
        case log
        /// `console.info`
        case info
        /// `console.warn`, drawn in yellow.
        case warn
        /// `console.error`, drawn in red.
        case error
        /// `console.debug`, drawn dimmed.
        case debug
    }

    /// How the message was logged.
    public var level: Level
    /// The message text.
    public var message: String

    /// Creates a console line.
    public init(level: Level, message: String) {
        self.level = level
        self.message = message
    }
}

/// An exception the script raised, with where it happened.
///
/// `line` and `column` are one-based and refer to the script as the editor sent it; the
/// column counts UTF-16 code units, as JavaScript engines do. The editor moves its cursor
/// there. (Chrome's DevTools protocol reports both zero-based: add one.)
public struct ScriptException: Hashable, Sendable {
    /// The error's constructor name, such as `TypeError`.
    public var name: String
    /// The error's message.
    public var message: String
    /// The one-based line, when known.
    public var line: Int?
    /// The one-based column in UTF-16 code units, when known.
    public var column: Int?

    /// Creates an error description.
    public init(name: String, message: String, line: Int? = nil, column: Int? = nil) {
        self.name = name
        self.message = message
        self.line = line
        self.column = column
    }
}
