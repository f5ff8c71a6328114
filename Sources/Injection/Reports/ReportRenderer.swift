import Foundation
import SystemSupport
import UserScripts
import WebDriver

/// Shows a ``RunReport`` and the failure of a run that did not complete, as the lines a command
/// writes: values on standard output, the page and everything about the run on standard error,
/// every piece of page-provided text escaped for the terminal; or, with `--json`, one object.
///
/// ```swift
/// let report = try await PageRun.perform(request)
/// for line in ReportRenderer.lines(of: report, asJSON: false) {
///     line.stream.write(line.text + "\n")   // the executable's job: libraries never print
/// }
/// ```
public enum ReportRenderer {
    /// The lines that show `report`; `timeline` adds a `timing` member to the JSON object.
    public static func lines(of report: RunReport, asJSON: Bool, timeline: PhaseTimeline? = nil) -> [StreamLine] {
        switch report {
        case let .script(result, screenshot):
            if asJSON {
                return [.output(withTiming(withScreenshot(result.json, screenshot), timeline).serialized)]
            }
            var lines: [StreamLine] = [.error(pageLine(result.context))]
            if let screenshot { lines.append(.error("screenshot: \(TerminalSafeText.escaped(screenshot))")) }
            lines += detailLines(of: result).map(StreamLine.error)
            if result.error == nil, let value = result.value { lines.append(.output(value.serialized)) }
            return lines
        case let .library(context, requested, results, screenshot):
            if asJSON {
                let run: JSONValue = ["url": .string(context.url), "title": .string(context.title),
                                      "scripts": .array(results.map { $0.json(on: context) })]
                return [.output(withTiming(withScreenshot(run, screenshot), timeline).serialized)]
            }
            return libraryLines(context: context, requested: requested, results: results, screenshot: screenshot)
        }
    }

    /// The lines of the library's scripts: per script a header on standard error and its value on
    /// standard output.
    static func libraryLines(context: PageContext, requested: String, results: [LibraryScriptResult], screenshot: String?) -> [StreamLine] {
        var lines: [StreamLine] = [.error(pageLine(context))]
        if let screenshot { lines.append(.error("screenshot: \(TerminalSafeText.escaped(screenshot))")) }
        if results.isEmpty {
            lines.append(.error("no library script runs automatically on \(TerminalSafeText.escaped(requested))"))
        }
        for entry in results {
            lines.append(.error("== \(TerminalSafeText.escaped(entry.script.name)) [\(entry.script.id)] (matched \(TerminalSafeText.escaped(entry.pattern.text)))"))
            switch entry.outcome {
            case let .success(result):
                lines += detailLines(of: result).map(StreamLine.error)
                if result.error == nil, let value = result.value { lines.append(.output(value.serialized)) }
            case let .failure(error):
                if let partial = error.partialResult { lines += detailLines(of: partial).map(StreamLine.error) }
                lines += textLines("not run: " + error.description).map(StreamLine.error)
            }
        }
        return lines
    }

    /// A run that did not complete: the failure on standard error, and with `asJSON` the run's
    /// object on standard output, with what it produced before it failed (console lines, dialogs)
    /// and the failure as its error.
    public static func failureLines(_ failure: PageRunner.Failure, address: String, asJSON: Bool) -> [StreamLine] {
        var lines = messageLines(failure.description)
        guard asJSON else { return lines }
        let error = ScriptError(name: failureName(failure), message: failure.description)
        if case let .injection(injection) = failure, let partial = injection.partialResult {
            lines.append(.output(partial.failing(with: error).json.serialized))
            return lines
        }
        let object: JSONValue = [
            "url": .string(address), "title": .null, "value": .null, "console": [], "dialogs": [],
            "error": ["name": .string(error.name), "message": .string(error.message), "line": .null, "column": .null],
        ]
        lines.append(.output(object.serialized))
        return lines
    }

    /// A command's failure message on standard error, `pagescript: ` first, each line escaped.
    public static func messageLines(_ message: String) -> [StreamLine] {
        let lines = textLines(message)
        return [.error("pagescript: " + (lines.first ?? ""))] + lines.dropFirst().map { .error("  " + $0) }
    }

    /// The `error.name` a failed run's JSON object carries.
    public static func failureName(_ failure: PageRunner.Failure) -> String {
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

    /// `timing: <phase> <ms> ms, ...; total <ms> ms`, for standard error.
    public static func timingLine(_ timeline: PhaseTimeline) -> StreamLine {
        func milliseconds(_ seconds: Double) -> String { "\(Int((seconds * 1000).rounded())) ms" }
        let phases = timeline.phases.map { "\($0.name) \(milliseconds($0.seconds))" }.joined(separator: ", ")
        return .error("timing: \(phases); total \(milliseconds(timeline.total))")
    }

    /// `object` with a `timing` member (`{"phases": [{"name", "seconds"}], "total"}`).
    static func withTiming(_ object: JSONValue, _ timeline: PhaseTimeline?) -> JSONValue {
        guard let timeline, case let .object(members) = object else { return object }
        let phases = timeline.phases.map { JSONValue.object([("name", .string($0.name)), ("seconds", .number($0.seconds))]) }
        return .object(members + [(key: "timing", value: ["phases": .array(phases), "total": .number(timeline.total)])])
    }

    /// `object` with a `screenshot` member holding the saved file's path, when one was saved.
    static func withScreenshot(_ object: JSONValue, _ screenshot: String?) -> JSONValue {
        guard let screenshot, case let .object(members) = object else { return object }
        return .object(members + [(key: "screenshot", value: .string(screenshot))])
    }
}
