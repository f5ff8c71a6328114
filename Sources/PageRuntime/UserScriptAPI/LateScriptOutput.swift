import GMAPI
import ScriptConsole
import UserScripts

/// What one script logged and asked after its run ended (a timer, an event handler, a
/// `GM_xmlhttpRequest` callback), as a session that stays open hands it over
/// (``PageSession/LateUserScriptWork/output``): for `browse` and the editor, to show as it happens.
public struct LateScriptOutput: Sendable, Equatable {
    /// The userscript's ID: the library's, or the one made for a script outside it; `nil` for
    /// console code.
    public let script: ScriptID?
    /// The userscript's `@name`; empty for console code.
    public let name: String
    /// Its console lines, in order (a frame of its own stack has no position).
    public let console: [ConsoleMessage]
    /// The dialogs it opened, as they were answered.
    public let dialogs: [ScriptDialog]
    /// The files it downloaded (`GM_download`), or tried to.
    public let downloads: [GMDownloadRecord]

    public init(script: ScriptID?, name: String, console: [ConsoleMessage], dialogs: [ScriptDialog], downloads: [GMDownloadRecord] = []) {
        self.script = script
        self.name = name
        self.console = console
        self.dialogs = dialogs
        self.downloads = downloads
    }
}
