import Foundation
import Injection
import TerminalUI
import WebDriver

/// Prints a script's result: the page on standard error, the value on standard output.
enum ResultPrinter {
    static func print(_ result: ScriptResult, asJSON: Bool) {
        if asJSON {
            printOutput(result.json.serialized)
            return
        }
        printError(pageLine(result.context))
        for line in result.console {
            printError("console.\(line.level.rawValue): \(TerminalSafeText.escaped(line.message))")
        }
        if let error = result.error {
            printError(errorLine(error))
        } else if let value = result.value {
            printOutput(value.serialized)
        }
    }

    static func pageLine(_ context: PageContext) -> String {
        let title = context.title.isEmpty ? "(untitled)" : TerminalSafeText.escaped(context.title)
        return "\(title) <\(TerminalSafeText.escaped(context.url))>"
    }

    static func errorLine(_ error: Injection.ScriptError) -> String {
        let text = "\(TerminalSafeText.escaped(error.name)): \(TerminalSafeText.escaped(error.message))"
        switch (error.line, error.column) {
        case let (line?, column?): return "\(text) (line \(line), column \(column))"
        case let (line?, nil): return "\(text) (line \(line))"
        default: return text
        }
    }
}
