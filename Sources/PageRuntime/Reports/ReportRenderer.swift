import Foundation
import SystemSupport
import UserScripts

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
    /// The lines that show `report`; `timeline` adds a `timing` member to the JSON object, and
    /// `quiet` (`--quiet`) leaves out the page's title line.
    public static func lines(of report: RunReport, asJSON: Bool, timeline: PhaseTimeline? = nil, quiet: Bool = false) -> [StreamLine] {
        if asJSON {
            return [.output(withTiming(withScreenshot(json(of: .completed(report)), report.screenshot), timeline).serialized)]
        }
        switch report {
        case let .script(result, screenshot):
            var lines: [StreamLine] = quiet ? [] : [.error(pageLine(result.context))]
            if let warning = unfinishedLoadLine(result.context, scripts: false) { lines.append(warning) }
            if let screenshot { lines.append(.error("screenshot: \(TerminalSafeText.escaped(screenshot))")) }
            lines += detailLines(of: result).map(StreamLine.error)
            if result.error == nil, let value = result.value { lines.append(.output(value.serialized)) }
            return lines
        case let .library(context, requested, results, screenshot):
            return libraryLines(context: context, requested: requested, results: results, screenshot: screenshot, quiet: quiet)
        case let .inspected(before, then):
            // Standard output holds the inspecting code's value alone; what ran first shows its
            // values with the rest, on standard error.
            let earlier = lines(of: before, asJSON: false, quiet: quiet).map { line in
                line.stream == .output ? .error("→ " + line.text) : line
            }
            var lines: [StreamLine] = earlier + [.error("== then (the -e, -f or - code)")]
            if then.context.url != before.context.url, !quiet { lines.append(.error(pageLine(then.context))) }
            lines += detailLines(of: then).map(StreamLine.error)
            if then.error == nil, let value = then.value { lines.append(.output(value.serialized)) }
            return lines
        }
    }

    /// The warning that the page's load did not finish before the scripts ran (a line of its
    /// own, shown even with `--quiet`); `nil` for a page that loaded.
    static func unfinishedLoadLine(_ context: PageContext, scripts: Bool) -> StreamLine? {
        guard let seconds = context.unfinishedLoad else { return nil }
        let what = scripts ? "the scripts ran" : "the script ran"
        return .error("pagescript: the page did not finish loading within \(InjectionError.format(seconds)) s (an image, a frame or a "
            + "script of it was still loading); \(what) on the document as it was")
    }

    /// What happened on a page as one JSON object: the one shape of `run --json` and of a batch
    /// record's page members.
    ///
    /// `httpStatus` is the main document's HTTP status where the engine reports it, else `null`.
    /// One script: `{"url","title","httpStatus","value","console","dialogs","error"}` (and `userscript` for a
    /// userscript run with the GM API, see ``ScriptResult/json``). The library's scripts:
    /// `{"url","title","httpStatus","scripts":[{"id","name","pattern","frame","value","console","dialogs","error"}],"error"}`,
    /// `frame` the address of the frame a script ran in (`null` for the page itself).
    /// Code that inspected the page after them: its own object, with `before` holding the object of
    /// what ran first.
    /// A run that did not complete has the same members, with what the script produced before it
    /// stopped, and the reason as `error` (`{"name","message","line":null,"column":null}`).
    public static func json(of report: PageReport) -> JSONValue {
        switch report {
        case let .completed(.script(result, _)):
            return result.json
        case let .completed(.library(context, _, results, _)):
            var members: [(key: String, value: JSONValue)] = [
                (key: "url", value: .string(context.url)), (key: "title", value: .string(context.title)),
                (key: "httpStatus", value: context.httpStatus.map { .integer(Int64($0)) } ?? .null),
            ]
            if let load = context.loadJSON { members.append((key: "load", value: load)) }
            return .object(members + [(key: "scripts", value: .array(results.map { $0.json(on: context) })), (key: "error", value: .null)])
        case let .completed(.inspected(before, then)):
            guard case let .object(members) = then.json else { return then.json }
            return .object(members + [(key: "before", value: json(of: .completed(before)))])
        case let .unfinished(run):
            // Where the browser got to, else the page the script started on.
            let url = run.url ?? run.partial?.context.url
            let title = run.title ?? run.partial?.context.title
            let status = run.partial?.context.httpStatus
            let location: [(key: String, value: JSONValue)] = [
                (key: "url", value: url.map { .string($0) } ?? .null),
                (key: "title", value: title.map { .string($0) } ?? .null),
                (key: "httpStatus", value: status.map { .integer(Int64($0)) } ?? .null),
            ]
            if run.isLibrary {
                return .object(location + [(key: "scripts", value: .array([])), (key: "error", value: ScriptResult.errorJSON(run.error))])
            }
            if let partial = run.partial, case let .object(members) = partial.failing(with: run.error).json {
                return .object(location + members.filter { !["url", "title", "httpStatus"].contains($0.key) })
            }
            return .object(location + [(key: "value", value: .null), (key: "console", value: .array([])), (key: "dialogs", value: .array([])),
                                       (key: "error", value: ScriptResult.errorJSON(run.error))])
        }
    }

    /// The lines of the library's scripts: per script a header on standard error and its value on
    /// standard output; the page's title line first unless `quiet`.
    static func libraryLines(context: PageContext, requested: String, results: [LibraryScriptResult], screenshot: String?,
                             quiet: Bool = false) -> [StreamLine] {
        var lines: [StreamLine] = quiet ? [] : [.error(pageLine(context))]
        if let warning = unfinishedLoadLine(context, scripts: true) { lines.append(warning) }
        if let screenshot { lines.append(.error("screenshot: \(TerminalSafeText.escaped(screenshot))")) }
        if results.isEmpty {
            lines.append(.error("no library script runs automatically on \(TerminalSafeText.escaped(requested))"))
        }
        for entry in results {
            let frame = entry.frame.map { " in the frame <\(TerminalSafeText.escaped($0))>" } ?? ""
            lines.append(.error("== \(TerminalSafeText.escaped(entry.script.name)) [\(entry.script.id)] (matched \(TerminalSafeText.escaped(entry.pattern.text)))\(frame)"))
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
    /// object on standard output (``json(of:)``), with what it produced before it failed (console
    /// lines, dialogs) and the failure as its error.
    ///
    /// In text, what the script produced first comes first, as a run that ended shows it: the
    /// page's line (not when `quiet`), the console lines and dialogs before the failure;
    /// `timeline` adds the `timing` member to the JSON object.
    public static func failureLines(_ failure: PageRunner.Failure, address: String, asJSON: Bool, isLibrary: Bool = false,
                                    timeline: PhaseTimeline? = nil, quiet: Bool = false) -> [StreamLine] {
        let unfinished = UnfinishedRun(failure, address: address, isLibrary: isLibrary)
        guard asJSON else {
            guard let partial = unfinished.partial else { return messageLines(failure.description) }
            // The failure is said once, below.
            let produced = detailLines(of: partial, showingError: false).map(StreamLine.error)
            return (quiet ? [] : [.error(pageLine(partial.context))]) + produced + messageLines(failure.description)
        }
        return messageLines(failure.description) + [.output(withTiming(json(of: .unfinished(unfinished)), timeline).serialized)]
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
        case .injection(.filesMissing): "NotRun"
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
