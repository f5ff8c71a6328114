import PageRuntime
import UserScripts

/// What ``BrowserFollower`` saw and did, in the order it happened.
public enum BrowseEvent: Sendable {
    /// The browser shows a new document (a link, a typed address, a reload, back/forward to a
    /// page the browser loads again).
    case newDocument(url: String, title: String)
    /// The follower moved to another window or tab whose document it had seen before (the
    /// followed one was closed): nothing runs again there.
    case windowChanged(url: String, title: String)
    /// A script asked for `url` with `GM_openInTab`: it opened in a new tab, in front, which is
    /// followed from now on (its own ``newDocument(url:title:)`` comes next).
    case tabOpened(url: String)
    /// The same document changed its address (`history.pushState`, `replaceState`, a hash):
    /// nothing runs again; the scripts there that granted `window.onurlchange` got a `urlchange`
    /// event.
    case addressChanged(url: String, title: String)
    /// The browser shows again a document it kept (back or forward, from its back/forward cache):
    /// nothing runs again; `results` are what ran there when it was first shown (their menu
    /// commands work again).
    case keptDocumentShown(url: String, title: String, results: [LibraryScriptResult])
    /// The library's scripts that belong there ran (possibly none).
    case ran(url: String, results: [LibraryScriptResult])
    /// In a tab the follower is not on (Chromium), the scripts installed for its document ran
    /// there by themselves and were collected when it loaded (`url` and `title` as the first
    /// script saw them). If the follower comes to that tab while the document is still there,
    /// it reports them again as ``ran(url:results:)``, with their menu commands.
    case ranInBackground(url: String, title: String, results: [LibraryScriptResult])
    /// What scripts on the page at `url` logged and asked after their runs ended (timers, event
    /// handlers, `GM_xmlhttpRequest` callbacks), as it happened.
    case laterOutput(url: String, output: [LateScriptOutput])
    /// What scripts on the page at `url`, in a tab the follower is not on (Chromium), logged and
    /// asked after their runs ended, as it happened: not the page the browser shows in front.
    case laterOutputInBackground(url: String, output: [LateScriptOutput])
    /// Scripts that match the page but are switched off for its site, so did not run.
    case switchedOff(url: String, scripts: [StoredScript])
    /// Running the scripts failed as a whole (the page went away mid-run, the library is unreadable).
    case failed(url: String, error: InjectionError)
    /// A menu command (``BrowseRequest/menuCommand(script:name:)``) ran, with the console lines
    /// it added, or could not run.
    case menuCommandRan(url: String, script: StoredScript, name: String, outcome: Result<ScriptResult, InjectionError>)
    /// ``BrowseRequest/toggleScriptsForSite`` switched `scripts` off (`isOn` false) or on again
    /// for `site`; none when no library script matches the page.
    case siteSwitched(url: String, site: Site, scripts: [StoredScript], isOn: Bool)
    /// The browser offers DevTools, but following its tabs there failed (`reason`): the
    /// `document-start` scripts run once each page has loaded instead.
    case documentStartUnavailable(reason: String)
    /// Following the library folder for saves (`browse --watch`) is not possible (`reason`):
    /// browsing goes on without it.
    case savesNotFollowed(reason: String)
    /// Scripts' notifications cannot be shown on the desktop (`reason`: no session bus, no
    /// notification service): they are reported, and closed unclicked at once.
    case notificationsNotShown(reason: String)
    /// Scripts' `GM_setClipboard` cannot set the display's clipboard (`reason`: no display, no
    /// `xclip`): it is reported only.
    case clipboardNotSet(reason: String)
    /// The library's script file `file` (its name in the folder) was saved, and what was done.
    case scriptSaved(file: String, save: ScriptSave)
}
