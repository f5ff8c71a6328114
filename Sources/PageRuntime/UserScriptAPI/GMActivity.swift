import GMAPI
import SystemSupport
import UserScripts

/// What a userscript did through the GM API that is reported rather than done in the page:
/// menu commands it registered, notifications, clipboard text, tabs it asked to open, files it
/// downloaded, cookie calls, grants PageScript does not provide, and when it ran.
///
/// In `--json` it is the result's `"userscript"` member:
/// `{"menuCommands":[NAME],"notifications":[{"text","title"}],"clipboard":[{"data","type"}],"openedTabs":[URL],`
/// `"downloads":[{"url","path","bytes","replaced"?,"notes"} or {"url","error","message","timedOut"?,"notes"}],
/// "cookies":[{"action","url","name"?,"listed"?,"error"?}],"unprovidedGrants":[GRANT],"valueWrites":N,"valuesKept":"library"|"session","problems":[TEXT],
/// "ranAt":"document-end"?}`.
public struct GMActivity: Sendable, Equatable {
    /// `GM_registerMenuCommand` names, in order (`pagescript run --script REF --menu NAME` runs one).
    public var menuCommands: [String] = []
    /// `GM_notification` calls: text and title.
    public var notifications: [(text: String, title: String)] = []
    /// `GM_setClipboard` calls: data and type.
    public var clipboard: [(data: String, type: String)] = []
    /// `GM_openInTab` URLs.
    public var openedTabs: [String] = []
    /// `GM_download` calls: where each file went, or why it did not.
    public var downloads: [GMDownloadRecord] = []
    /// `GM_cookie` calls, in the order they were done.
    public var cookies: [GMCookieRecord] = []
    /// The script of each of ``downloads`` (several scripts' work can be served together).
    var downloadOwners: [(id: ScriptID, name: String)] = []
    /// `@grant` values PageScript does not provide, reported once per run.
    public var unprovidedGrants: [String] = []
    /// How many value writes (`GM_setValue`, `GM_deleteValue`) reached the store.
    public var valueWrites = 0
    /// Whether the script's values are kept in the library (a library script, or text with the
    /// `@name` and `@namespace` of one), or only while the session lasts (text the library does
    /// not hold).
    public var valuesKeptInLibrary = true
    /// What went wrong on PageScript's side (a value that could not be saved, ...).
    public var problems: [String] = []
    /// When the script ran, when that differs from its `@run-at` (`document-end` for a
    /// `document-start` script where the engine cannot run it earlier).
    public var ranAt: String?

    public init() {}

    public static func == (lhs: GMActivity, rhs: GMActivity) -> Bool {
        lhs.json == rhs.json
    }

    /// The activity as JSON (see the type's discussion).
    public var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("menuCommands", .array(menuCommands.map(JSONValue.string))),
            ("notifications", .array(notifications.map { ["text": .string($0.text), "title": .string($0.title)] })),
            ("clipboard", .array(clipboard.map { ["data": .string($0.data), "type": .string($0.type)] })),
            ("openedTabs", .array(openedTabs.map(JSONValue.string))),
            ("downloads", .array(downloads.map(\.json))),
            ("cookies", .array(cookies.map(\.json))),
            ("unprovidedGrants", .array(unprovidedGrants.map(JSONValue.string))),
            ("valueWrites", .integer(Int64(valueWrites))),
            ("valuesKept", .string(valuesKeptInLibrary ? "library" : "session")),
            ("problems", .array(problems.map(JSONValue.string))),
        ]
        if let ranAt { members.append(("ranAt", .string(ranAt))) }
        return .object(members)
    }

    mutating func record(download: GMDownloadRecord, by run: GMScriptRun) {
        downloads.append(download)
        downloadOwners.append((run.id, run.script.name))
    }

    /// A download whose file was removed because the script aborted it: its record replaced.
    mutating func record(aborted: GMDownloadRecord, by run: GMScriptRun) {
        if let index = downloads.lastIndex(where: { $0.url == aborted.url && $0.path != nil }) {
            downloads[index] = aborted
        } else {
            record(download: aborted, by: run)
        }
    }

    /// The downloads as a late hand-over's output, one entry per script.
    var downloadOutput: [LateScriptOutput] {
        var output: [LateScriptOutput] = []
        for (record, owner) in zip(downloads, downloadOwners) {
            if let last = output.last, last.script == owner.id {
                output[output.count - 1] = LateScriptOutput(script: owner.id, name: owner.name, console: [], dialogs: [], downloads: last.downloads + [record])
            } else {
                output.append(LateScriptOutput(script: owner.id, name: owner.name, console: [], dialogs: [], downloads: [record]))
            }
        }
        return output
    }

    /// Adds one report of the page half (`{"kind", ...}`).
    mutating func add(report: JSONValue) {
        switch report["kind"]?.stringValue {
        case "menuCommand":
            if let name = report["name"]?.stringValue, !menuCommands.contains(name) { menuCommands.append(name) }
        case "notification":
            notifications.append((report["text"]?.stringValue ?? "", report["title"]?.stringValue ?? ""))
        case "clipboard":
            clipboard.append((report["data"]?.stringValue ?? "", report["type"]?.stringValue ?? "text"))
        case "openInTab":
            if let url = report["url"]?.stringValue { openedTabs.append(url) }
        default:
            break
        }
    }
}
