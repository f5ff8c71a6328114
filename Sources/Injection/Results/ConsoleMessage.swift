/// One `console.*` call the script made while it ran.
public struct ConsoleMessage: Sendable, Equatable {
    /// The console method's level.
    public enum Level: String, Sendable, CaseIterable {
        case log, info, warn, error, debug, trace
    }

    /// Which method was called.
    public let level: Level
    /// The arguments, formatted the way a browser console shows them.
    public let message: String

    public init(level: Level, message: String) {
        self.level = level
        self.message = message
    }
}
