import Foundation
import Injection
import TerminalText
import UserScripts
import WebDriver

/// Prints results: the page, the console lines and errors on standard error (escaped), the
/// values on standard output as JSON; with `--json`, one object on standard output instead,
/// whose fields are those of Injection's `ScriptResult.json`.
enum ResultPrinter {
    /// Prints one script's result.
    static func print(_ result: ScriptResult, asJSON: Bool) {
        if asJSON {
            printOutput(result.json.serialized)
            return
        }
        printError(pageLine(result.context))
        printOutcome(result)
    }

    /// Prints the results of the library's automatic scripts: one JSON object with every
    /// script's result, or per script a header on standard error and its value on standard output.
    static func printLibraryRun(context: PageContext, url: String, results: [LibraryScriptResult], asJSON: Bool) {
        if asJSON {
            let run: JSONValue = ["url": .string(context.url), "title": .string(context.title),
                                  "scripts": .array(results.map { $0.json(on: context) })]
            printOutput(run.serialized)
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
                printOutcome(result)
            case let .failure(error):
                printError("not run: \(TerminalSafeText.escaped(error.description))")
            }
        }
    }

    /// The console lines and the error on standard error, or the value on standard output.
    private static func printOutcome(_ result: ScriptResult) {
        for line in result.console {
            printError("console.\(line.level.rawValue): \(TerminalSafeText.escaped(line.message))")
        }
        if let error = result.error {
            printError(errorLine(error))
        } else if let value = result.value {
            printOutput(value.serialized)
        }
    }

    private static func pageLine(_ context: PageContext) -> String {
        let title = context.title.isEmpty ? "(untitled)" : TerminalSafeText.escaped(context.title)
        return "\(title) <\(TerminalSafeText.escaped(context.url))>"
    }

    private static func errorLine(_ error: ScriptError) -> String {
        let text = "\(TerminalSafeText.escaped(error.name)): \(TerminalSafeText.escaped(error.message))"
        switch (error.line, error.column) {
        case let (line?, column?): return "\(text) (line \(line), column \(column))"
        case let (line?, nil): return "\(text) (line \(line))"
        default: return text
        }
    }
}

extension LibraryScriptResult {
    /// The script's entry in `run --json` for the library: which script and pattern, then the
    /// `value`, `console` and `error` of its `ScriptResult.json`. A script that could not run
    /// has the reason as a `NotRun` error.
    func json(on context: PageContext) -> JSONValue {
        let result = switch outcome {
        case let .success(result): result
        case let .failure(error): ScriptResult(context: context, value: nil, console: [], error: ScriptError(name: "NotRun", message: error.description))
        }
        var members: [(key: String, value: JSONValue)] = [
            (key: "id", value: .string(script.id.rawValue)), (key: "name", value: .string(script.name)), (key: "pattern", value: .string(pattern.text)),
        ]
        if case let .object(fields) = result.json {
            members += fields.filter { $0.key != "url" && $0.key != "title" }
        }
        return .object(members)
    }
}
