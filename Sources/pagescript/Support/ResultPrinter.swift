import Foundation
import Injection
import SystemSupport
import TerminalText
import UserScripts
import WebDriver

/// Prints a script's result: the page on standard error, the value on standard output.
enum ResultPrinter {
    static func print(_ result: ScriptResult, asJSON: Bool, screenshot: String? = nil) {
        if asJSON {
            printOutput(withTiming(withScreenshot(result.json, screenshot)).serialized)
            return
        }
        printError(pageLine(result.context))
        if let screenshot { printError("screenshot: \(TerminalSafeText.escaped(screenshot))") }
        printDetails(of: result)
        if result.error == nil, let value = result.value {
            printOutput(value.serialized)
        }
    }

    /// `object` with a `timing` member (`{"phases": [{"name", "seconds"}], "total"}`) when the run
    /// is timed (`--timing`).
    static func withTiming(_ object: JSONValue) -> JSONValue {
        guard let timeline = PhaseTimeline.current, case let .object(members) = object else { return object }
        let phases = timeline.phases.map { JSONValue.object([("name", .string($0.name)), ("seconds", .number($0.seconds))]) }
        return .object(members + [(key: "timing", value: ["phases": .array(phases), "total": .number(timeline.total)])])
    }

    /// `timing: prepare 4 ms, driver 180 ms, ...; total 737 ms` on standard error.
    static func printTiming(_ timeline: PhaseTimeline) {
        func milliseconds(_ seconds: Double) -> String { "\(Int((seconds * 1000).rounded())) ms" }
        let phases = timeline.phases.map { "\($0.name) \(milliseconds($0.seconds))" }.joined(separator: ", ")
        printError("timing: \(phases); total \(milliseconds(timeline.total))")
    }

    /// `object` with a `screenshot` member holding the saved file's path, when one was saved.
    static func withScreenshot(_ object: JSONValue, _ screenshot: String?) -> JSONValue {
        guard let screenshot, case let .object(members) = object else { return object }
        return .object(members + [(key: "screenshot", value: .string(screenshot))])
    }

    /// The console lines, dialogs and error of a result, on standard error.
    static func printDetails(of result: ScriptResult) {
        detailLines(of: result).forEach(printError)
    }

    /// The console lines, dialogs, GM API reports and error of a result, as escaped lines; the
    /// menu commands only when `listingMenuCommands` (a caller that offers them otherwise says no).
    static func detailLines(of result: ScriptResult, listingMenuCommands: Bool = true) -> [String] {
        var lines = result.console.flatMap(consoleLines)
        lines += result.dialogs.map(dialogLine)
        lines += result.userscript.map { userscriptLines($0, listingMenuCommands: listingMenuCommands) } ?? []
        if let error = result.error {
            lines += textLines(errorLine(error))
        }
        return lines
    }

    /// What a userscript reported through the GM API, one line each, page-provided text escaped.
    static func userscriptLines(_ activity: GMActivity, listingMenuCommands: Bool = true) -> [String] {
        var lines = activity.unprovidedGrants.map { "@grant \(TerminalSafeText.escaped($0)): not provided by PageScript" }
        if listingMenuCommands {
            lines += activity.menuCommands.map { "menu command: \(TerminalSafeText.escaped($0)) (run it with --menu)" }
        }
        lines += activity.notifications.map { "notification: \(TerminalSafeText.escaped($0.title.isEmpty ? $0.text : $0.title + ": " + $0.text))" }
        lines += activity.clipboard.map { "clipboard (\(TerminalSafeText.escaped($0.type))): \(TerminalSafeText.escaped($0.data))" }
        lines += activity.openedTabs.map { "open in tab: \(TerminalSafeText.escaped($0))" }
        lines += activity.problems.map { "userscript: \(TerminalSafeText.escaped($0))" }
        if activity.valueWrites > 0, !activity.valuesKeptInLibrary {
            lines.append("values: kept only while this session lasts; the library has no script with this @name and @namespace "
                + "(`pagescript scripts new -f FILE` saves it, and its values are kept from then on)")
        }
        if let ranAt = activity.ranAt { lines.append("ran at \(ranAt): this engine cannot run document-start scripts before the page's own") }
        return lines
    }

    static func pageLine(_ context: PageContext) -> String {
        let title = context.title.isEmpty ? "(untitled)" : TerminalSafeText.escaped(context.title)
        return "\(title) <\(TerminalSafeText.escaped(context.url))>"
    }

    static func errorLine(_ error: Injection.ScriptError) -> String {
        let text = "\(error.name): \(error.message)"
        switch (error.line, error.column) {
        case let (line?, column?): return "\(text) (line \(line), column \(column))"
        case let (line?, nil): return "\(text) (line \(line))"
        default: return text
        }
    }

    /// A console entry as lines: `console.LEVEL: message`, indented by its group depth, then a
    /// table's rows or a trace's frames.
    static func consoleLines(_ line: ConsoleMessage) -> [String] {
        let indent = String(repeating: "  ", count: line.depth)
        let message = textLines(line.message)
        var lines = ["\(indent)console.\(TerminalSafeText.escaped(line.level.rawValue)): \(message.first ?? "")"]
        lines += message.dropFirst().map { indent + "  " + $0 }
        if let table = line.table {
            lines += tableLines(table).map { indent + "  " + $0 }
        }
        for frame in line.stack {
            lines.append(indent + "    at " + frameText(frame))
        }
        return lines
    }

    static func frameText(_ frame: StackFrame) -> String {
        TerminalSafeText.escaped(frame.description)
    }

    /// A console table in columns separated by `|`, each as wide as its widest cell.
    static func tableLines(_ table: ConsoleTable) -> [String] {
        let rows = [table.columns] + table.rows
        let cells = rows.map { $0.map { TerminalSafeText.escaped($0.replacingOccurrences(of: "\n", with: " ")) } }
        let widths = table.columns.indices.map { column in cells.map { $0.indices.contains(column) ? $0[column].count : 0 }.max() ?? 0 }
        return cells.map { row in
            table.columns.indices.map { column in
                let cell = row.indices.contains(column) ? row[column] : ""
                return cell + String(repeating: " ", count: widths[column] - cell.count)
            }.joined(separator: " | ").trimmingCharacters(in: .whitespaces)
        }
    }

    static func dialogLine(_ dialog: ScriptDialog) -> String {
        let answer: String
        switch (dialog.kind, dialog.accepted) {
        case ("prompt", true?): answer = " -> \(TerminalSafeText.escaped(dialog.answer ?? ""))"
        case (_, true?): answer = " -> accepted"
        case (_, false?): answer = " -> dismissed"
        default: answer = ""
        }
        let source = dialog.openedByPage ? " (opened by the page)" : ""
        return "\(TerminalSafeText.escaped(dialog.kind))\(source): \(textLines(dialog.message).joined(separator: " / "))\(answer)"
    }

    /// Text that may hold line breaks, as escaped lines: a line break is a line break, never a
    /// visible `\n`, and trailing ones are dropped.
    static func textLines(_ text: String) -> [String] {
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map { TerminalSafeText.escaped(String($0)) }
        var trimmed = Array(lines)
        while trimmed.count > 1, trimmed.last?.trimmingCharacters(in: .whitespaces).isEmpty == true { trimmed.removeLast() }
        return trimmed
    }

    /// A failure's message on standard error, `pagescript: ` first, each line escaped.
    static func printFailure(_ message: String) {
        let lines = textLines(message)
        printError("pagescript: " + (lines.first ?? ""))
        lines.dropFirst().forEach { printError("  " + $0) }
    }

    /// With `--json`, a run that did not complete still prints its object: what the run produced
    /// before it failed (console lines, dialogs), and the failure as the error.
    static func printFailureJSON(_ failure: PageRunner.Failure, address: String) {
        let error = Injection.ScriptError(name: failureName(failure), message: failure.description)
        if case let .injection(injection) = failure, let partial = injection.partialResult {
            printOutput(partial.failing(with: error).json.serialized)
            return
        }
        let object: JSONValue = [
            "url": .string(address), "title": .null, "value": .null, "console": [], "dialogs": [],
            "error": ["name": .string(error.name), "message": .string(error.message), "line": .null, "column": .null],
        ]
        printOutput(object.serialized)
    }

    static func failureName(_ failure: PageRunner.Failure) -> String {
        switch failure {
        case .engine: "EngineFailed"
        case .injection(.timedOut): "Timeout"
        case .injection(.loadTimedOut): "LoadTimeout"
        case .injection(.navigationFailed), .injection(.invalidURL): "NavigationFailed"
        case .injection(.navigatedAway): "NavigatedAway"
        case .injection(.pageInterfered), .injection(.malformedReply): "PageInterfered"
        case .injection(.pageChanged): "PageChanged"
        case .injection(.webDriver), .injection(.resourceMissing): "EngineFailed"
        case .injection(.library): "LibraryError"
        }
    }
}

extension ResultPrinter {
    /// Prints the results of the library's automatic scripts: one JSON object with every script's
    /// result, or per script a header on standard error and its value on standard output.
    static func printLibraryRun(context: PageContext, url: String, results: [LibraryScriptResult], asJSON: Bool, screenshot: String? = nil) {
        if asJSON {
            let run: JSONValue = ["url": .string(context.url), "title": .string(context.title),
                                  "scripts": .array(results.map { $0.json(on: context) })]
            printOutput(withTiming(withScreenshot(run, screenshot)).serialized)
            return
        }
        printError(pageLine(context))
        if let screenshot { printError("screenshot: \(TerminalSafeText.escaped(screenshot))") }
        if results.isEmpty {
            printError("no library script runs automatically on \(TerminalSafeText.escaped(url))")
        }
        for entry in results {
            printError("== \(TerminalSafeText.escaped(entry.script.name)) [\(entry.script.id)] (matched \(TerminalSafeText.escaped(entry.pattern.text)))")
            switch entry.outcome {
            case let .success(result):
                printDetails(of: result)
                if result.error == nil, let value = result.value {
                    printOutput(value.serialized)
                }
            case let .failure(error):
                if let partial = error.partialResult { printDetails(of: partial) }
                textLines("not run: " + error.description).forEach(printError)
            }
        }
    }
}

extension LibraryScriptResult {
    /// The script's entry in `run --json` for the library: which script and pattern, then the
    /// `value`, `console`, `dialogs` and `error` of its `ScriptResult.json`. A script that could
    /// not run has the reason as a `NotRun` error, after what it produced before it stopped.
    func json(on context: PageContext) -> JSONValue {
        let result = switch outcome {
        case let .success(result): result
        case let .failure(error):
            (error.partialResult ?? ScriptResult(context: context, value: nil, console: [], error: nil))
                .failing(with: ScriptError(name: "NotRun", message: error.description))
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
