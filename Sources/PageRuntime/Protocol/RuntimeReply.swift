import ScriptConsole
import SystemSupport

/// The runtime's reply to one call, decoded and checked: JSON text whose `pagescript` member says
/// it is one.
///
/// - a run: `{"pagescript":1,"run","state":"done"|"running"|"timedOut","lineOffset","realm":"fresh"|"page",
///   "context":{"URL","title","bodyText"?},"refused"?,"scripts":[{"finished","hasValue"?,"value"?,"error"?,"console"?,"dialogs"?,"reports"?}],
///   "work"?}`, where a list left out is empty;
/// - a context: the same without `run`, `state` and `scripts`;
/// - `{"pagescript":1,"missing":id}` for a run the page no longer knows, `{"pagescript":1,"protocolError":text}`
///   for a request it could not read.
///
/// Positions in a reply are lines of the Execute Script body (the driver's own offset already
/// taken off); ``result(ofScript:prepared:placement:)`` turns them into the user's.
struct RuntimeReply: Sendable {
    enum State: String, Sendable {
        case done, running, timedOut
    }

    let json: JSONValue

    /// Decodes `text`; anything that is not a reply of the runtime is a reply the page broke.
    init(text: String) throws(InjectionError) {
        let decoded: JSONValue
        do {
            decoded = try JSONValue(parsing: text)
        } catch {
            throw .pageInterfered(reason: "the reply is not JSON (\(error.description))")
        }
        guard decoded["pagescript"]?.intValue == 1 else {
            throw .pageInterfered(reason: "the reply is not PageScript's")
        }
        if let problem = decoded["protocolError"]?.stringValue {
            throw .pageInterfered(reason: "the runtime could not read its request: \(problem)")
        }
        json = decoded
    }

    init(json: JSONValue) {
        self.json = json
    }

    var state: State? { json["state"]?.stringValue.flatMap(State.init(rawValue:)) }
    var missingRun: String? { json["missing"]?.stringValue }
    /// For a ``missingRun``, the `performance.timeOrigin` of the document that did not know it.
    var missingRunDocumentStart: Double? {
        switch json["origin"] {
        case let .integer(value)?: Double(value)
        case let .number(value)?: value
        default: nil
        }
    }
    /// Whether the request did not arrive as text (the page's `JSON.parse` replaced it).
    var requestLost: Bool { json["requestLost"] == .bool(true) }
    var refusedAt: String? { json["refused"]?.stringValue }
    /// The main document's HTTP status, when the run checked the load and the engine reports it.
    var loadStatus: Int? { json["load"]?["status"]?.intValue }
    /// Why the run skipped its scripts after checking the load (`error-page`, `no-new-document`,
    /// `other-document`, `http-status`), if it did.
    var skippedLoad: String? { json["load"]?["skipped"]?.stringValue }
    /// Where the browser went instead of the address asked for, when the load check found a
    /// document that another page sent it to (`other-document`), or one at another address that
    /// names no page it came from (``arrivedUnreferred``).
    var loadedElsewhere: String? { json["load"]?["url"]?.stringValue }
    /// Whether the load check found a document at another address than the one asked for that
    /// names no page it came from: a server's redirect, or a page that sends no referrer.
    var arrivedUnreferred: Bool { json["load"]?["unreferred"] == .bool(true) }
    /// The `performance.timeOrigin` of the document the load was checked in, as the page wrote it.
    var loadOrigin: JSONValue? { json["load"]?["origin"] }
    /// What the page's userscripts ask of PageScript: `{"run","script","type":"value","change"}` and
    /// `{"run","script","type":"xhr","request","details"}`, in the order they asked.
    var work: [JSONValue] { json["work"]?.arrayValue ?? [] }
    /// A watch's reply: the page is being left, and its work is the last its document queues.
    var pageIsLeaving: Bool { json["leaving"] == .bool(true) }
    /// The reports of script `index` (`GM_notification`, `GM_setClipboard`, ...): `{"kind", ...}`.
    func reports(ofScript index: Int) -> [JSONValue] {
        json["scripts"]?.arrayValue?[safe: index]?["reports"]?.arrayValue ?? []
    }
    var scriptCount: Int { json["scripts"]?.arrayValue?.count ?? 0 }
    /// Whether the runtime works with built-ins of a fresh realm (not the page's own).
    var hasFreshRealm: Bool { json["realm"]?.stringValue == "fresh" }

    /// The page's address as its document reports it.
    var documentURL: String? { json["context"]?["URL"]?.stringValue }
    /// The visible text of an error page (`about:blank` or `chrome-error://` after a failed load).
    var errorPageText: String? { json["context"]?["bodyText"]?.stringValue }

    func context() throws(InjectionError) -> PageContext {
        guard let context = json["context"] else { throw .pageInterfered(reason: "the reply has no page context") }
        guard let url = context["URL"]?.stringValue, let title = context["title"]?.stringValue else {
            throw .pageInterfered(reason: "the page's URL or title is not text")
        }
        do {
            let status = context["status"]?.intValue.flatMap { (100...599).contains($0) ? $0 : nil }
            return try PageContext(url: url, title: title, httpStatus: status)
        } catch {
            throw .pageInterfered(reason: error.description)
        }
    }

    /// Script `index`'s outcome as a result, and whether the script finished.
    func result(ofScript index: Int, prepared: PreparedScript, placement: ScriptBody.Placement) throws(InjectionError) -> (result: ScriptResult, finished: Bool) {
        let context = try self.context()
        guard let entry = json["scripts"]?.arrayValue?[safe: index] else {
            return (ScriptResult(context: context, value: nil, console: [], error: nil), false)
        }
        let positions = PositionMapping(prepared: prepared, placement: placement)
        let console = try Self.console(entry["console"], frame: positions.frame)
        let dialogs = (entry["dialogs"]?.arrayValue ?? []).compactMap(Self.dialog)
        let finished = entry["finished"] == .bool(true)
        if let error = entry["error"], !error.isNull {
            let position = positions.userPosition(line: error["line"]?.intValue, column: error["column"]?.intValue)
            let scriptError = ScriptError(
                name: error["name"]?.stringValue ?? "Error", message: error["message"]?.stringValue ?? "",
                line: position?.line, column: position?.column, stack: positions.stack(error["frames"]))
            return (ScriptResult(context: context, value: nil, console: console, error: scriptError, dialogs: dialogs), finished)
        }
        let value = entry["hasValue"] == .bool(true) ? (entry["value"] ?? .null) : nil
        return (ScriptResult(context: context, value: value, console: console, error: nil, dialogs: dialogs), finished)
    }

    /// Console entries as the runtime writes them; `frame` maps a stack frame's body position to
    /// the user's script.
    static func console(_ json: JSONValue?, frame: (JSONValue) -> StackFrame) throws(InjectionError) -> [ConsoleMessage] {
        var console: [ConsoleMessage] = []
        for line in json?.arrayValue ?? [] {
            guard let level = line["level"]?.stringValue, let message = line["message"]?.stringValue else {
                throw .pageInterfered(reason: "a console entry is malformed")
            }
            console.append(ConsoleMessage(
                level: ConsoleMessage.Level(rawValue: level), message: message, depth: line["depth"]?.intValue ?? 0,
                table: Self.table(line["table"]), stack: (line["stack"]?.arrayValue ?? []).map(frame)))
        }
        return console
    }

    /// What the scripts of runs that had ended logged and asked since last reported
    /// (`laterOutput` of a late reply): run ID, console lines and dialogs, per script. A stack
    /// frame in the script itself has no position: only its run could map it to the user's lines.
    var laterOutput: [(run: String, console: [ConsoleMessage], dialogs: [ScriptDialog])] {
        func frame(_ json: JSONValue) -> StackFrame {
            let function = json["function"]?.stringValue ?? ""
            if json["script"] == .bool(true) { return StackFrame(function: function, line: nil, column: nil, isInScript: true) }
            return StackFrame(function: function, url: json["url"]?.stringValue, line: json["line"]?.intValue, column: json["column"]?.intValue)
        }
        return (json["laterOutput"]?.arrayValue ?? []).compactMap { entry in
            guard let run = entry["run"]?.stringValue, let console = try? Self.console(entry["console"], frame: frame) else { return nil }
            return (run, console, (entry["dialogs"]?.arrayValue ?? []).compactMap(Self.dialog))
        }
    }

    private static func table(_ json: JSONValue?) -> ConsoleTable? {
        guard let json, let columns = json["columns"]?.arrayValue, let rows = json["rows"]?.arrayValue else { return nil }
        return ConsoleTable(
            columns: columns.map { $0.stringValue ?? "" },
            rows: rows.map { ($0.arrayValue ?? []).map { $0.stringValue ?? "" } })
    }

    private static func dialog(_ json: JSONValue) -> ScriptDialog? {
        guard let kind = json["type"]?.stringValue, let message = json["message"]?.stringValue else { return nil }
        let accepted: Bool?
        if case let .bool(flag)? = json["accepted"] { accepted = flag } else { accepted = nil }
        return ScriptDialog(kind: kind, message: message, accepted: accepted, answer: json["answer"]?.stringValue, openedAt: json["at"]?.doubleValue)
    }
}

/// Turns positions of the Execute Script body into positions in the user's script.
struct PositionMapping {
    let prepared: PreparedScript
    let placement: ScriptBody.Placement

    func userPosition(line: Int?, column: Int?) -> (line: Int, column: Int?)? {
        guard let line, let scriptLine = placement.scriptLine(forBodyLine: line) else { return nil }
        return prepared.originalPosition(line: scriptLine, column: column)
    }

    /// An error's stack as its lines, one frame each (`f (line 2, column 22)`), from the
    /// runtime's frames: those of the body outside the user's code are PageScript's and left out.
    /// `nil` when the engine gave no stack, or only PageScript's frames.
    func stack(_ json: JSONValue?) -> String? {
        guard let frames = json?.arrayValue else { return nil }
        let kept = frames.compactMap { json -> StackFrame? in
            let frame = frame(json)
            return frame.isInScript && frame.line == nil && json["line"]?.intValue != nil ? nil : frame
        }
        return kept.isEmpty ? nil : kept.map(\.description).joined(separator: "\n")
    }

    func frame(_ json: JSONValue) -> StackFrame {
        let function = json["function"]?.stringValue ?? ""
        if json["script"] == .bool(true) {
            let position = userPosition(line: json["line"]?.intValue, column: json["column"]?.intValue)
            return StackFrame(function: function, line: position?.line, column: position?.column, isInScript: true)
        }
        return StackFrame(function: function, url: json["url"]?.stringValue, line: json["line"]?.intValue, column: json["column"]?.intValue)
    }
}

extension Array {
    subscript(safe index: Int) -> Element? {
        indices.contains(index) ? self[index] : nil
    }
}
