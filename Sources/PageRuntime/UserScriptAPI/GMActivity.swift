import GMAPI
import SystemSupport
import UserScripts

/// What a userscript did through the GM API that is reported rather than done in the page:
/// menu commands it registered, notifications, clipboard text, tabs it asked to open, files it
/// downloaded, cookie calls, grants PageScript does not provide, and when it ran.
///
/// In `--json` it is the result's `"userscript"` member:
/// `{"menuCommands":[NAME],"notifications":[{"text","title","image"?,"tag"?,"silent"?,"highlight"?,"timeout"?,"url"?}],`
/// `"clipboard":[{"data","type","mimetype"}],"openedTabs":[URL],"tabs":[{"url",...}] (see ``GMTab``),`
/// `"downloads":[{"url","path","bytes","replaced"?,"notes"} or {"url","error","message","timedOut"?,"notes"}],
/// "cookies":[{"action","url","name"?,"listed"?,"error"?}],"unprovidedGrants":[GRANT],"valueWrites":N,"valuesKept":"library"|"session","problems":[TEXT],
/// "windowCalls":["close"|"focus"]?,"ranAt":"document-end"?}`.
public struct GMActivity: Sendable, Equatable {
    /// The names of the menu commands the script registered and did not unregister, in order,
    /// each once (`pagescript run --script REF --menu NAME` runs one).
    public var menuCommands: [String] {
        var names: [String] = []
        for command in menuEntries where !names.contains(command.name) { names.append(command.name) }
        return names
    }
    /// The registered menu commands by ID (`GM_registerMenuCommand`'s return value, or its
    /// `options.id`): registering again under an ID replaces the command, unregistering removes it.
    var menuEntries: [(id: String, name: String)] = []
    /// `GM_notification` calls; one with the `tag` of an earlier one replaces it.
    public var notifications: [GMNotification] = []
    /// `GM_setClipboard` calls.
    public var clipboard: [GMClipboardWrite] = []
    /// `GM_openInTab` URLs, as the scripts wrote them (those of ``tabs``).
    public var openedTabs: [String] { tabs.map(\.url) }
    /// `GM_openInTab` calls, with their options and what became of each tab.
    public var tabs: [GMTab] = []
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
    /// `window.close()` and `window.focus()` calls of a script that grants them, in order:
    /// reported, not done, since in `run` and `batch` the tab is the run's.
    public var windowCalls: [String] = []
    /// When the script ran, when that differs from its `@run-at` (`document-end` for a
    /// `document-start` script where the engine cannot run it earlier).
    public var ranAt: String?
    /// The runtime's ID of the run this is of (``PageSession/runMenuCommand(_:of:script:)`` runs
    /// the commands that very run registered, in its own document); `nil` before the run was served.
    var runID: String?

    public init() {}

    public static func == (lhs: GMActivity, rhs: GMActivity) -> Bool {
        lhs.json == rhs.json
    }

    /// The activity as JSON (see the type's discussion).
    public var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("menuCommands", .array(menuCommands.map(JSONValue.string))),
            ("notifications", .array(notifications.map(\.json))),
            ("clipboard", .array(clipboard.map(\.json))),
            ("openedTabs", .array(openedTabs.map(JSONValue.string))),
            ("tabs", .array(tabs.map(\.json))),
            ("downloads", .array(downloads.map(\.json))),
            ("cookies", .array(cookies.map(\.json))),
            ("unprovidedGrants", .array(unprovidedGrants.map(JSONValue.string))),
            ("valueWrites", .integer(Int64(valueWrites))),
            ("valuesKept", .string(valuesKeptInLibrary ? "library" : "session")),
            ("problems", .array(problems.map(JSONValue.string))),
        ]
        if !windowCalls.isEmpty { members.append(("windowCalls", .array(windowCalls.map(JSONValue.string)))) }
        if let ranAt { members.append(("ranAt", .string(ranAt))) }
        return .object(members)
    }

    /// The addresses of the tabs a follower of the page (`browse`) opens for the script: those
    /// that open (``GMTab/opening(from:)``).
    public func tabsToOpen(from pageURL: String) -> [String] {
        tabs.compactMap { tab in
            if case let .opens(address) = tab.opening(from: pageURL) { address } else { nil }
        }
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

    /// Adds what another piece of served work did (its problems, value writes, downloads and
    /// cookie calls: what ``PageSession/serve(_:pageURL:entry:activity:andRequests:)`` records).
    mutating func add(served other: GMActivity) {
        problems += other.problems
        valueWrites += other.valueWrites
        downloads += other.downloads
        downloadOwners += other.downloadOwners
        cookies += other.cookies
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
            guard let name = report["name"]?.stringValue else { return }
            let id = report["id"]?.stringValue ?? name
            if let index = menuEntries.firstIndex(where: { $0.id == id }) {
                menuEntries[index].name = name
            } else {
                menuEntries.append((id, name))
            }
        case "menuCommandRemoved":
            if let id = report["id"]?.stringValue { menuEntries.removeAll { $0.id == id } }
        case "notification":
            let notification = GMNotification(report: report)
            if let tag = notification.tag, let index = notifications.firstIndex(where: { $0.tag == tag }) {
                notifications[index] = notification
            } else {
                notifications.append(notification)
            }
        case "clipboard":
            clipboard.append(GMClipboardWrite(data: report["data"]?.stringValue ?? "", type: report["type"]?.stringValue ?? "text",
                                              mimetype: report["mimetype"]?.stringValue))
        case "window":
            if let call = report["call"]?.stringValue { windowCalls.append(call) }
        case "openInTab":
            if let tab = GMTab(report: report) { tabs.append(tab) }
        case "closeTab":
            if let number = report["tab"]?.intValue, let index = tabs.lastIndex(where: { $0.number == number }) { tabs[index].closedByScript = true }
        default:
            break
        }
    }
}
