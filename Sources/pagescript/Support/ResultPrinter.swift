import Foundation
import Injection
import TerminalText
import UserScripts
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

extension ResultPrinter {
    /// Prints the results of the library's automatic scripts: one JSON object with every script's
    /// result, or per script a header on standard error and its value on standard output.
    static func printLibraryRun(context: PageContext, url: String, results: [LibraryScriptResult], asJSON: Bool) {
        if asJSON {
            let scripts: [JSONValue] = results.map { entry in
                var members: [(key: String, value: JSONValue)] = [
                    (key: "id", value: .string(entry.script.id.rawValue)),
                    (key: "name", value: .string(entry.script.name)),
                    (key: "pattern", value: .string(entry.pattern.text)),
                ]
                switch entry.outcome {
                case let .success(result):
                    let json = result.json
                    members += [(key: "value", value: json["value"] ?? .null), (key: "console", value: json["console"] ?? .array([])),
                                (key: "error", value: json["error"] ?? .null)]
                case let .failure(error):
                    members += [(key: "value", value: .null), (key: "console", value: .array([])),
                                (key: "error", value: ["name": "NotRun", "message": .string(error.description), "line": .null, "column": .null])]
                }
                return .object(members)
            }
            printOutput(JSONValue.object([(key: "url", value: .string(context.url)), (key: "title", value: .string(context.title)),
                                          (key: "scripts", value: .array(scripts))]).serialized)
            return
        }
        printError(pageLine(context))
        if results.isEmpty {
            printError("no library script runs automatically on \(TerminalSafeText.escaped(url))")
        }
        for entry in results {
            printError("== \(TerminalSafeText.escaped(entry.script.name)) [\(entry.script.id)] (matched \(TerminalSafeText.escaped(entry.pattern.text)))")
            switch entry.outcome {
            case let .success(result):
                for line in result.console {
                    printError("console.\(line.level.rawValue): \(TerminalSafeText.escaped(line.message))")
                }
                if let error = result.error {
                    printError(errorLine(error))
                } else if let value = result.value {
                    printOutput(value.serialized)
                }
            case let .failure(error):
                printError("not run: \(TerminalSafeText.escaped(error.description))")
            }
        }
    }
}
