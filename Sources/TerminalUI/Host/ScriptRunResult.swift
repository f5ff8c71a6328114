import ScriptConsole
/// What running a script produced: its value, what it logged, and the exception it raised.
///
/// All text in here comes from the page and is escaped before the editor draws it.
///
/// ```swift
/// let result = ScriptRunResult(value: .number("42"), console: [ConsoleMessage(level: .log, message: "hi")])
/// ```
public struct ScriptRunResult: Hashable, Sendable {
    /// The script's completion value, or `nil` when it was `undefined`.
    public var value: ResultValue?
    /// Console messages in the order they were logged.
    public var console: [ConsoleMessage]
    /// The uncaught exception, if the script threw.
    public var exception: ScriptException?

    /// Creates a result.
    public init(value: ResultValue? = nil, console: [ConsoleMessage] = [], exception: ScriptException? = nil) {
        self.value = value
        self.console = console
        self.exception = exception
    }
}
