import Engines
import Foundation
import SystemSupport

/// `run --engine all` (or a comma list): the same run on several engines at once, and what each
/// one's outcome has that another's has not.
///
/// Each engine gets its own browser, started side by side (they share nothing: their own
/// drivers, ports, displays and profiles), and the outcomes are compared aspect by aspect: the
/// value, each console line (its level and text; stack frames are the engine's own and never
/// compared), each dialog, and the error with its line and column. A run of the library's
/// scripts is compared script by script. The page's title and address are not compared: they
/// are the page's, whatever the script did.
///
/// ```swift
/// let comparison = await EngineComparison.perform([(.webkit, webkitRequest), (.chromium, chromiumRequest)])
/// comparison.lines(asJSON: false, skipped: [.safari]).forEach { show($0) }
/// ```
public struct EngineComparison: Sendable {
    /// One engine's run: its report, or why it did not complete.
    public struct Outcome: Sendable {
        public let engine: Engine
        public let result: Result<RunReport, PageRunner.Failure>
        /// The address the run was asked for, for a run that did not complete.
        public let address: String
        public let isLibrary: Bool

        /// What happened on the page, completed or not.
        public var report: PageReport {
            switch result {
            case let .success(report): .completed(report)
            case let .failure(failure): .unfinished(UnfinishedRun(failure, address: address, isLibrary: isLibrary))
            }
        }
    }

    /// One aspect of the outcomes (`value`, `console 2`, `Tidy: error`), as each engine has it, in
    /// the order of ``outcomes``; `nil` where an engine has no such aspect.
    public struct Row: Sendable, Equatable {
        public let aspect: String
        public let cells: [String?]

        /// Whether the engines disagree on this aspect.
        public var differs: Bool { Set(cells.map { $0 ?? "\u{0}" }).count > 1 }
    }

    /// The runs, in the order the engines were given.
    public let outcomes: [Outcome]

    /// Runs each request on its engine, all at once, and waits for every one.
    public static func perform(_ requests: [(engine: Engine, request: RunRequest)]) async -> EngineComparison {
        let results = await withTaskGroup(of: (Int, Result<RunReport, PageRunner.Failure>).self) { group in
            for (index, entry) in requests.enumerated() {
                group.addTask {
                    do throws(PageRunner.Failure) {
                        return (index, .success(try await PageRun.perform(entry.request)))
                    } catch {
                        return (index, .failure(error))
                    }
                }
            }
            var results: [(index: Int, result: Result<RunReport, PageRunner.Failure>)] = []
            for await finished in group { results.append((finished.0, finished.1)) }
            return results.sorted { $0.index < $1.index }.map(\.result)
        }
        return EngineComparison(outcomes: zip(requests, results).map { entry, result in
            Outcome(engine: entry.engine, result: result, address: entry.request.address, isLibrary: entry.request.script.isLibrary)
        })
    }

    public init(outcomes: [Outcome]) {
        self.outcomes = outcomes
    }

    /// Every aspect any engine has, in the order they first appear.
    public var rows: [Row] {
        let aspects = outcomes.map { Self.aspects(of: $0.report) }
        var order: [String] = []
        for list in aspects {
            for (name, _) in list where !order.contains(name) { order.append(name) }
        }
        return order.map { name in
            Row(aspect: name, cells: aspects.map { list in list.first { $0.name == name }?.text })
        }
    }

    /// Whether every engine's outcome is the same in every aspect.
    public var isUnanimous: Bool { !rows.contains(where: \.differs) }

    /// The lines that show the comparison. In text: when the outcomes are the same, the first
    /// engine's run as `run` shows it, and one line saying on which engines it is the same; else
    /// the page line of each engine on standard error, and on standard output a table, an engine
    /// a column, an aspect a row, `≠` before each row that differs. With `asJSON`, one object:
    /// `{"engines": {"<engine>": <run --json object>, ...}, "skipped": [...], "differences": [aspects]}`.
    /// `skipped` are the engines left out for not being installed; `quiet` leaves out page lines.
    public func lines(asJSON: Bool, skipped: [Engine] = [], quiet: Bool = false) -> [StreamLine] {
        let rows = rows
        if asJSON {
            let engines = JSONValue.object(outcomes.map { (key: $0.engine.rawValue, value: ReportRenderer.json(of: $0.report)) })
            return [.output(JSONValue.object([
                (key: "engines", value: engines),
                (key: "skipped", value: .array(skipped.map { .string($0.rawValue) })),
                (key: "differences", value: .array(rows.filter(\.differs).map { .string($0.aspect) })),
            ]).serialized)]
        }
        var lines: [StreamLine] = skipped.isEmpty ? [] : [.error("skipped (not installed): \(skipped.map(\.rawValue).joined(separator: ", "))")]
        let names = outcomes.map(\.engine.rawValue).joined(separator: ", ")
        if let first = outcomes.first, isUnanimous {
            lines += Self.singleLines(first, quiet: quiet)
            return lines + [.error("the same on \(names): value, console and error")]
        }
        if !quiet {
            lines += outcomes.map { outcome in .error("\(outcome.engine.rawValue): " + Self.pageLine(outcome.report)) }
        }
        return lines + Self.table(headers: outcomes.map(\.engine.rawValue), rows: rows).map(StreamLine.output)
    }

    /// One run's lines, as `run` shows them.
    private static func singleLines(_ outcome: Outcome, quiet: Bool) -> [StreamLine] {
        switch outcome.result {
        case let .success(report): ReportRenderer.lines(of: report, asJSON: false, quiet: quiet)
        case let .failure(failure): ReportRenderer.failureLines(failure, address: outcome.address, asJSON: false, isLibrary: outcome.isLibrary, quiet: quiet)
        }
    }

    private static func pageLine(_ report: PageReport) -> String {
        switch report {
        case let .completed(run): ReportRenderer.pageLine(run.context)
        case let .unfinished(run): "\(TerminalSafeText.escaped(run.title ?? "(untitled)")) <\(TerminalSafeText.escaped(run.url ?? run.partial?.context.url ?? ""))>"
        }
    }

    /// The aspects of one outcome, named and shown as text (escaped).
    static func aspects(of report: PageReport) -> [(name: String, text: String)] {
        switch report {
        case let .completed(.script(result, _)):
            return aspects(of: result, prefix: "")
        case let .completed(.inspected(_, then)):
            return aspects(of: then, prefix: "")
        case let .completed(.library(_, _, results, _)):
            return results.flatMap { entry -> [(name: String, text: String)] in
                let prefix = TerminalSafeText.escaped(entry.script.name) + (entry.frame.map { " <\(TerminalSafeText.escaped($0))>" } ?? "") + ": "
                switch entry.outcome {
                case let .success(result): return aspects(of: result, prefix: prefix)
                case let .failure(error): return [(prefix + "error", "not run: " + TerminalSafeText.escaped(error.description))]
                }
            }
        case let .unfinished(run):
            let earlier = run.partial.map { aspects(of: $0, prefix: "").filter { $0.name != "value" && $0.name != "error" } } ?? []
            return earlier + [("error", TerminalSafeText.escaped(ReportRenderer.errorLine(run.error)))]
        }
    }

    private static func aspects(of result: ScriptResult, prefix: String) -> [(name: String, text: String)] {
        var aspects: [(name: String, text: String)] = []
        aspects.append((prefix + "value", result.error == nil ? TerminalSafeText.escaped(result.value?.serialized ?? "undefined") : "-"))
        for (index, message) in result.console.enumerated() {
            let text = ReportRenderer.textLines(message.message).joined(separator: " / ")
            aspects.append((prefix + "console \(index + 1)", "console.\(TerminalSafeText.escaped(message.level.rawValue)): \(text)"))
        }
        for (index, dialog) in result.dialogs.enumerated() {
            aspects.append((prefix + "dialog \(index + 1)", ReportRenderer.dialogLine(dialog)))
        }
        aspects.append((prefix + "error", result.error.map { TerminalSafeText.escaped(ReportRenderer.errorLine($0)) } ?? "-"))
        return aspects
    }

    /// Columns padded to their widest cell; `≠` marks a row that differs, `(none)` a missing cell.
    private static func table(headers: [String], rows: [Row]) -> [String] {
        let grid = [(mark: " ", cells: [""] + headers)] + rows.map { row in
            (mark: row.differs ? "≠" : " ", cells: [row.aspect] + row.cells.map { $0 ?? "(none)" })
        }
        let widths = (0..<(headers.count + 1)).map { column in grid.map { $0.cells[column].count }.max() ?? 0 }
        return grid.map { line in
            let padded = line.cells.enumerated().map { column, cell in cell + String(repeating: " ", count: widths[column] - cell.count) }
            var text = line.mark + " " + padded.joined(separator: "  ")
            while text.last == " " { text.removeLast() }
            return text
        }
    }
}
