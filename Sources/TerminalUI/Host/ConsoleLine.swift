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
