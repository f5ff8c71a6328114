/// What running a script produced: its value, what it logged, and the exception it raised.
///
/// All text in here comes from the page and is escaped before the editor draws it.
public struct ScriptRunResult: Hashable, Sendable {
    /// The script's completion value as JSON text, or `nil` when it was `undefined`.
    public var valueJSON: String?
    /// Console messages in the order they were logged.
    public var console: [ConsoleLine]
    /// The uncaught exception, if the script threw.
    public var error: ScriptError?

    /// Creates a result.
    public init(valueJSON: String? = nil, console: [ConsoleLine] = [], error: ScriptError? = nil) {
        self.valueJSON = valueJSON
        self.console = console
        self.error = error
    }
}
