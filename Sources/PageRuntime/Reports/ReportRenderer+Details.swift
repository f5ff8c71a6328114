import Foundation
import GMAPI
import ScriptConsole
import SystemSupport
import UserScripts

extension ReportRenderer {
    /// How a result's lines show the menu commands a userscript registered: with what runs them
    /// where the lines are read.
    public enum MenuCommandListing: Sendable {
        /// Listed with `run`'s `--menu` option.
        case runOption
        /// Listed for `browse` without a terminal: a terminal's browse gives them keys.
        case browseKeys
        /// Not listed: the caller offers them otherwise (browse's keys at a terminal).
        case omitted
    }

    /// The console lines, dialogs, GM API reports and error of a result, as escaped lines; the
    /// menu commands as `menuCommands` says.
    public static func detailLines(of result: ScriptResult, menuCommands: MenuCommandListing = .runOption, showingError: Bool = true) -> [String] {
        var lines = result.console.flatMap(consoleLines)
        lines += result.dialogs.map(dialogLine)
        lines += result.userscript.map { userscriptLines($0, menuCommands: menuCommands) } ?? []
        if showingError, let error = result.error {
            lines += textLines(errorLine(error))
        }
        return lines
    }

    /// What a script logged and asked after its run ended, as escaped lines, each after the
    /// userscript's name (`Price watch: console.log: 3 prices`).
    public static func lines(of output: LateScriptOutput) -> [String] {
        let name = output.name.isEmpty ? "" : TerminalSafeText.escaped(output.name) + ": "
        return (output.console.flatMap(consoleLines) + output.dialogs.map(dialogLine) + output.downloads.map { TerminalSafeText.escaped($0.line) })
            .map { name + $0 }
    }

    /// What a userscript reported through the GM API, one line each, page-provided text escaped.
    static func userscriptLines(_ activity: GMActivity, menuCommands: MenuCommandListing = .runOption) -> [String] {
        let safe = TerminalSafeText.escaped
        var lines = activity.unprovidedGrants.map { "@grant \(safe($0)): not provided by PageScript" }
        switch menuCommands {
        case .runOption: lines += activity.menuCommands.map { "menu command: \(safe($0)) (run it with --menu)" }
        case .browseKeys: lines += activity.menuCommands.map { "menu command: \(safe($0)) (browse at a terminal runs it with a number key)" }
        case .omitted: break
        }
        lines += activity.notifications.map { notification in
            notification.onlyHighlights ? "notification: highlights the tab"
                : "notification: \(safe(notification.title.isEmpty ? notification.text : notification.title + ": " + notification.text))"
        }
        lines += activity.clipboard.map { "clipboard (\(safe($0.type))): \(safe($0.data))" }
        lines += activity.tabs.map { safe($0.line) }
        lines += activity.windowCalls.map { "window.\($0)(): reported, not done" }
        lines += activity.downloads.map { safe($0.line) }
        lines += activity.cookies.map { safe($0.line) }
        lines += activity.problems.map { "userscript: \(safe($0))" }
        if activity.valueWrites > 0, !activity.valuesKeptInLibrary {
            lines.append("values: kept only while this session lasts; the library has no script with this @name and @namespace "
                + "(`pagescript scripts new -f FILE` saves it, and its values are kept from then on)")
        }
        if let ranAt = activity.ranAt { lines.append("ran at \(ranAt): this engine cannot run document-start scripts before the page's own scripts, so it ran once the page had loaded") }
        return lines
    }

    /// `Title <url>`, escaped; `(untitled)` for a page without a title.
    public static func pageLine(_ context: PageContext) -> String {
        let title = context.title.isEmpty ? "(untitled)" : TerminalSafeText.escaped(context.title)
        let status = context.httpStatus.map { $0 >= 400 ? " (HTTP \($0))" : "" } ?? ""
        return "\(title) <\(TerminalSafeText.escaped(context.url))>\(status)"
    }

    /// `Name: message (line L, column C)`, not yet escaped.
    public static func errorLine(_ error: ScriptError) -> String {
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
            lines.append(indent + "    at " + TerminalSafeText.escaped(frame.description))
        }
        return lines
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

    /// `alert: message -> accepted`, and whether the page opened it.
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
    public static func textLines(_ text: String) -> [String] {
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map { TerminalSafeText.escaped(String($0)) }
        var trimmed = Array(lines)
        while trimmed.count > 1, trimmed.last?.trimmingCharacters(in: .whitespaces).isEmpty == true { trimmed.removeLast() }
        return trimmed
    }
}

extension LibraryScriptResult {
    /// The script's entry in `run --json` for the library: which script and pattern, then the
    /// `value`, `console`, `dialogs` and `error` of its `ScriptResult.json`. A script that could
    /// not run has the reason as a `NotRun` error, after what it produced before it stopped.
    public func json(on context: PageContext) -> JSONValue {
        let result = switch outcome {
        case let .success(result): result
        case let .failure(error):
            (error.partialResult ?? ScriptResult(context: context, value: nil, console: [], error: nil))
                .failing(with: ScriptError(name: "NotRun", message: error.description))
        }
        var members: [(key: String, value: JSONValue)] = [
            (key: "id", value: .string(script.id.rawValue)), (key: "name", value: .string(script.name)), (key: "pattern", value: .string(pattern.text)),
            (key: "frame", value: frame.map { .string($0) } ?? .null),
        ]
        if case let .object(fields) = result.json {
            members += fields.filter { !["url", "title", "httpStatus", "load"].contains($0.key) }
        }
        return .object(members)
    }
}
