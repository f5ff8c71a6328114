import Injection
import TerminalUI

extension ScriptRunResult {
    /// The editor's view of a script's outcome on the page.
    public init(_ result: Injection.ScriptResult) {
        self.init(
            valueJSON: result.value?.serialized,
            console: result.console.map { ConsoleLine(level: ConsoleLine.Level($0.level), message: $0.message) },
            error: result.error.map { TerminalUI.ScriptError(name: $0.name, message: $0.message, line: $0.line, column: $0.column) })
    }
}

extension ConsoleLine.Level {
    init(_ level: ConsoleMessage.Level) {
        self = ConsoleLine.Level(rawValue: level.rawValue) ?? .log
    }
}
