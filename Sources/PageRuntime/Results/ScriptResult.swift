import ScriptConsole
import SystemSupport

/// The outcome of running one script on a page.
public struct ScriptResult: Sendable, Equatable {
    /// The page the script ran on: its URL and title when the run started.
    public let context: PageContext
    /// The script's completion value as JSON; `nil` when it was `undefined` or the script threw.
    ///
    /// Values JSON cannot hold have readable forms: a DOM node is `{"$node": "<input#q.search
    /// name=q>"}` (see ``NodeDescription``), a window `{"$window": URL}`, `NaN` and `Infinity` and
    /// BigInts strings, functions `"[Function: name]"`, dates ISO strings, maps objects, sets
    /// arrays, errors `{"name","message"}`, cycles `"[Circular]"`, and a member that threw while it
    /// was read `"[Thrown: TypeError: ...]"`.
    public let value: JSONValue?
    /// Every console call the script made, in order.
    public let console: [ConsoleMessage]
    /// The dialogs the script (or the page, while it ran) opened.
    public let dialogs: [ScriptDialog]
    /// What the script threw; `nil` when it ran to completion.
    public let error: ScriptError?
    /// For a userscript run with the GM API, what it did that is reported rather than done (menu
    /// commands, notifications, clipboard, tabs, grants not provided); `nil` for other runs.
    public let userscript: GMActivity?

    public init(context: PageContext, value: JSONValue?, console: [ConsoleMessage], error: ScriptError?, dialogs: [ScriptDialog] = [],
                userscript: GMActivity? = nil) {
        self.context = context
        self.value = value
        self.console = console
        self.dialogs = dialogs
        self.error = error
        self.userscript = userscript
    }

    /// The result as one JSON object:
    /// `{"url","title","httpStatus","value","console":[{"level","message",...}],"dialogs":[...],"error":{"name","message","line","column","stack"?}|null}`.
    /// With the GM API, also `"userscript": {...}` (see ``GMActivity``); on a page whose load did
    /// not finish, `"load": {"finished": false, "timeout"}` after `httpStatus` (``PageContext/unfinishedLoad``).
    public var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("url", .string(context.url)),
            ("title", .string(context.title)),
            ("httpStatus", context.httpStatus.map { .integer(Int64($0)) } ?? .null),
        ]
        if let load = context.loadJSON { members.append(("load", load)) }
        members += [
            ("value", value ?? .null),
            ("console", .array(console.map(\.json))),
            ("dialogs", .array(dialogs.map(\.json))),
            ("error", error.map(Self.errorJSON) ?? .null),
        ]
        if let userscript { members.append(("userscript", userscript.json)) }
        return .object(members)
    }

    /// The same result with `error` in place of the script's own outcome (a run that timed out or
    /// was cut short keeps the console lines and dialogs it had).
    public func failing(with error: ScriptError) -> ScriptResult {
        ScriptResult(context: context, value: nil, console: console, error: error, dialogs: dialogs, userscript: userscript)
    }

    /// The same result with `userscript` as its GM activity.
    func with(userscript activity: GMActivity?) -> ScriptResult {
        ScriptResult(context: context, value: value, console: console, error: error, dialogs: dialogs, userscript: activity)
    }

    static func errorJSON(_ error: ScriptError) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            (key: "name", value: .string(error.name)),
            (key: "message", value: .string(error.message)),
            (key: "line", value: error.line.map { .integer(Int64($0)) } ?? .null),
            (key: "column", value: error.column.map { .integer(Int64($0)) } ?? .null),
        ]
        if let stack = error.stack { members.append((key: "stack", value: .string(stack))) }
        return .object(members)
    }
}
