import Foundation
import GMAPI
import PageRuntime
import SystemSupport
import UserScripts
import WebDriver

/// Follows a browser the user drives and runs the library's scripts on every page it shows,
/// as a userscript manager does: on each new document, once it has loaded (document-idle), the
/// enabled scripts that match its address, each once per document and in its own scope. A
/// single-page navigation (`pushState`, a hash) runs nothing: as in Tampermonkey and
/// Violentmonkey, the scripts that granted `window.onurlchange` are told of it with a `urlchange`
/// event. A document the browser kept and shows again (back or forward, from its back/forward
/// cache) runs nothing again either.
///
/// On Chromium, every script runs at its own `@run-at` moment in every tab, followed or not
/// (``DocumentStartInterception``, on a DevTools connection of its own): `document-start` before
/// the page's own scripts, `document-end` at `DOMContentLoaded`, `document-idle` after the load
/// event; the follower collects their results when it sees the document. Elsewhere the follower
/// runs them itself once the page has loaded, and `document-start` scripts say so
/// (`ranAt: document-end`).
///
/// It looks at the browser with one small Execute Async Script call that waits in the page until
/// the page has loaded, is left or changes its address (at most `interval`), over plain W3C
/// WebDriver, so it works on every engine. It follows one window or tab at a time: the one it was
/// given, then each one the user opens (WebDriver sends commands to one window at a time, and
/// chromedriver brings the window it switches to to the front, so windows are not taken in
/// turns), and when the one it follows is closed, one that is left.
///
/// ```swift
/// let follower = BrowserFollower(page: page, library: library)
/// let ending = await follower.follow(isStopped: { stop.isRequested }) { event in show(event) }
/// ```
public struct BrowserFollower: Sendable {
    /// How following ended.
    public enum Ending: Sendable, Equatable {
        /// The user closed the window, or the browser went away.
        case windowClosed(reason: String)
        /// `isStopped` said so (the user pressed `q`), or the task was cancelled.
        case stopped
    }

    /// The page session on the browser's window.
    public let page: PageSession
    /// Where the scripts come from.
    public let library: ScriptLibrary
    /// How long one look may wait in the page for something to happen, and the pause after a
    /// look that failed.
    public let interval: Duration
    /// The address opened once following has started (so that its `document-start` scripts run
    /// there too); `nil` to stay on the page the browser shows.
    public let firstAddress: String?

    /// The pause before looking again at a page that is loading or being left: short, so a new
    /// page is seen soon after its load, yet no busy loop while a slow page loads.
    static let brief: Duration = .milliseconds(10)

    /// Asks about a host a script's `@connect` lines do not name (the terminal view's
    /// ``BrowseTerminalView/ask(_:)``); `nil` refuses such requests, naming the line to add.
    public let asker: ConnectAsker?
    /// Where scripts' `GM_download` saves files; `nil`: downloads are off.
    public let downloads: URL?

    /// Whether the library folder is followed for saves made in the user's own editor
    /// (`browse --watch`): a saved script that runs on the page shown gets the page reloaded, so
    /// that its new version runs there (``BrowseEvent/scriptSaved(file:save:)``).
    public let followsSaves: Bool

    /// Whether the follower uses the desktop of the session: scripts' `GM_notification` is shown
    /// through the session bus's notification service and its clicks delivered back to the
    /// script (``PageRuntime/GMNotificationDisplay``), and `GM_setClipboard` sets the clipboard of
    /// the display (`DISPLAY`) through `xclip` (``SystemSupport/X11Clipboard``). Without it, or
    /// where one is missing (``BrowseEvent/notificationsNotShown(reason:)``,
    /// ``BrowseEvent/clipboardNotSet(reason:)``), they are reported, and notifications closed at once.
    public let usesTheDesktop: Bool

    public init(page: PageSession, library: ScriptLibrary, interval: Duration = .milliseconds(200), opening firstAddress: String? = nil,
                asker: ConnectAsker? = nil, followingSaves followsSaves: Bool = false, downloads: URL? = nil, usingTheDesktop usesTheDesktop: Bool = true) {
        self.usesTheDesktop = usesTheDesktop
        self.downloads = downloads
        self.page = page
        self.library = library
        self.interval = interval
        self.firstAddress = firstAddress
        self.asker = asker
        self.followsSaves = followsSaves
    }

    /// Something that edits a script on the followed page (the terminal editor in
    /// `pagescript browse`), given the page and the GM API's host half the page's scripts use.
    /// It returns when editing has ended, with the addresses the edited scripts asked to open
    /// with `GM_openInTab`, which the follower opens as its scripts' tabs; the page must be left open.
    public typealias Editing = @Sendable (PageSession, GMHost) async -> [String]

    /// Follows the browser until the window is closed or `isStopped` returns `true`, reporting
    /// every page and every run to `report`, and doing what is sent to `requests` between looks.
    ///
    /// - Parameters:
    ///   - requests: What the user asks for; taken between looks.
    ///   - isStopped: Asked before every look.
    ///   - report: Told every page, run and answer to a request, and on Chromium what ran in
    ///     tabs the follower is not on (``BrowseEvent/ranInBackground(url:title:results:)``,
    ///     from another task).
    ///   - edit: Called for ``BrowseRequest/editScript``, between looks: the follower waits
    ///     for it and looks at the browser again once it returns (a page that was left or
    ///     reloaded meanwhile is a new document, whose scripts run then). Without it, the
    ///     request is ignored.
    public func follow(requests: BrowseRequests = BrowseRequests(), isStopped: @Sendable () -> Bool,
                       report: @escaping @Sendable (BrowseEvent) -> Void, edit: Editing? = nil) async -> Ending {
        // One host for the whole session, so that what scripts do after their runs (a value
        // written or a request made from a timer) is served between looks.
        var notifications: GMNotificationDisplay?
        var clipboard: X11Clipboard?
        if usesTheDesktop {
            switch await BlockingWork.run({ Result { () throws(DesktopNotifications.Unavailable) in try GMNotificationDisplay.connect() } }) {
            case let .success(display): notifications = display
            case let .failure(unavailable): report(.notificationsNotShown(reason: unavailable.description))
            }
            do {
                clipboard = try X11Clipboard(display: ProcessInfo.processInfo.environment["DISPLAY"])
            } catch {
                report(.clipboardNotSet(reason: error.description))
            }
        }
        let host = GMHost(libraryDirectory: library.directory, asker: asker, downloads: downloads, notifications: notifications,
                          clipboard: clipboard)
        var interception: DocumentStartInterception?
        switch await DocumentStartInterception.start(page: page, library: library, host: host, report: report) {
        case let .success(started)?: interception = started
        case let .failure(error)?: report(.documentStartUnavailable(reason: error.description))
        case nil: break
        }
        // The tab in front is the follower's from the start, so its first page is not collected
        // in the background; it is set up before the first page is opened in it.
        if let interception, let here = try? await page.session.windowHandle(timeout: 5) {
            interception.follow(window: here)
            await interception.waitUntilSetUp(window: here, seconds: 5)
        }
        // Each script's GM_saveTab object lasts as long as its tab, named as the interception
        // names the tab's DevTools target.
        if let here = try? await page.session.windowHandle(timeout: 5) { page.identify(asTab: DocumentStartInterception.targetID(ofWindow: here)) }
        // A run's last answers are followed by a wait in the page, so that a page that leaves as
        // soon as they reached it loses nothing its scripts wrote or asked as it was left.
        page.keepWatchingAfterUserScriptRuns(for: interval)
        if let firstAddress {
            do {
                _ = try await page.open(firstAddress)
            } catch {
                report(.failed(url: firstAddress, error: error))
            }
        }
        var saves: FolderWatch?
        if followsSaves {
            do {
                saves = try FolderWatch(folder: library.directory)
            } catch {
                report(.savesNotFollowed(reason: error.description))
            }
        }
        let ending = await follow(host: host, interception: interception, requests: requests, saves: saves, isStopped: isStopped,
                                  report: report, edit: edit)
        saves?.cancel()
        await interception?.stop()
        await host.shutdown()
        return ending
    }

    /// What ran in the document the window shows: each script at most once per document.
    private struct DocumentRuns {
        /// The document's ID (``DocumentProbe/Sighting/documentID``), once seen loaded.
        var id: String?
        /// What ran here and completed, in order (their menu commands, when the document is shown again).
        var ran: [LibraryScriptResult] = []
        /// Every script that ran or failed here, so that none runs twice.
        var tried: Set<ScriptID> = []
        /// The scripts whose runs completed, with their results (their menu commands).
        var results: [ScriptID: (script: StoredScript, result: ScriptResult)] = [:]
        /// Scripts ran here while another window was followed: their later work is still served.
        var ranBefore = false
        /// Addresses scripts here asked to open with `GM_openInTab`, not opened yet.
        var tabsToOpen: [String] = []

        /// Whether scripts may have left work to serve here.
        var hasRuns: Bool { ranBefore || !tried.isEmpty }
    }

    /// The documents the window showed before the one it shows now, by ID, with the runtimes their
    /// scripts ran in: the browser may show one of them again (back or forward) without loading it.
    private struct KeptDocuments {
        /// At most this many, the latest: a back/forward cache keeps only a few pages.
        static let limit = 16
        private var documents: [(runs: DocumentRuns, runtime: PageSession.InstalledRuntime?)] = []

        /// Keeps `runs` (with the runtime the page session has for it now) as one the browser may show again.
        mutating func keep(_ runs: DocumentRuns, runtime: PageSession.InstalledRuntime?) {
            guard let id = runs.id else { return }
            documents.removeAll { $0.runs.id == id }
            documents.append((runs, runtime))
            if documents.count > Self.limit { documents.removeFirst() }
        }

        /// The document with `id`, no longer kept here (it is shown now).
        mutating func take(_ id: String) -> (runs: DocumentRuns, runtime: PageSession.InstalledRuntime?)? {
            guard let index = documents.firstIndex(where: { $0.runs.id == id }) else { return nil }
            return documents.remove(at: index)
        }
    }

    private func follow(host: GMHost, interception: DocumentStartInterception?, requests: BrowseRequests, saves: FolderWatch?,
                        isStopped: @Sendable () -> Bool, report: @escaping @Sendable (BrowseEvent) -> Void, edit: Editing?) async -> Ending {
        let probe = DocumentProbe()
        var address: String?
        var document = DocumentRuns()
        var kept = KeptDocuments()
        var windows = Set((try? await page.session.windowHandles(timeout: 10)) ?? [])
        // Just moved to another window: its document may have been seen (and its scripts run) before.
        var adopting = false
        // The runtimes of windows left for another one, by window: what their scripts queue
        // meanwhile is served on return.
        var runtimes: [String: PageSession.InstalledRuntime] = [:]
        // Where calls overlap (Chromium), a wait for the scripts' late work is kept in place in
        // the document for good; elsewhere each look ends with one.
        var lateWatch: LateWorkWatch?
        defer { lateWatch?.stop() }
        func leaveWindow() async {
            lateWatch?.stop()
            guard let here = try? await page.session.windowHandle(timeout: 5) else { return }
            runtimes[here] = page.installedRuntime
            interception?.leave(window: here, runtime: page.installedRuntime, url: address)
        }
        // Looks that failed in a row: the first is retried at once (a navigation that tore the
        // probe's document down under it, as Chromium does), later ones at the usual pace.
        var failedLooks = 0
        while !isStopped(), !Task.isCancelled {
            // The probe waits in the page for up to `interval`: a page that is idle needs no
            // pause of its own, one that is loading or being left is looked at again at once. In a
            // document whose scripts ran, the wait is the runtime's instead, which also ends
            // when they queue work, and hands over what they queued when the page is left.
            var pause: Duration? = Self.brief
            do {
                let probeWait = document.hasRuns && lateWatch?.isRunning != true ? .zero : interval
                let reply = try await page.executeAsyncScript(probe.source, arguments: probe.arguments(waitingAtMost: probeWait),
                                                                      timeout: 10)
                failedLooks = 0
                let sighting = probe.sighting(from: reply)
                if let sighting, sighting.isLeaving || sighting.isLoaded { pause = nil }
                // A reply that is not the probe's: a page that broke it is looked at at the usual pace.
                if sighting == nil { pause = interval }
                if let sighting, sighting.isLoaded, !sighting.isLeaving {
                    if sighting.isNewDocument {
                        lateWatch?.stop()
                        address = sighting.url
                        kept.keep(document, runtime: page.installedRuntime)
                        document = DocumentRuns(id: sighting.documentID)
                        // The runtime of the document before is gone with it: install afresh at
                        // the first run instead of trying the old one first.
                        page.resumeRuntime(nil)
                        report(.newDocument(url: sighting.url, title: sighting.title))
                        if let early = await collectInstalledRuns(from: interception) {
                            report(.ran(url: early.url, results: early.results))
                            keep(early.results, at: early.url, in: &document)
                        }
                        await runScripts(in: &document, at: address, host: host, report: report)
                    } else if adopting {
                        address = sighting.url
                        document.id = sighting.documentID
                        document.ranBefore = true
                        report(.windowChanged(url: sighting.url, title: sighting.title))
                    } else if let id = sighting.documentID, id != document.id {
                        // Back or forward to a document the browser kept: its scripts ran when it
                        // was first shown, and their runtime is still in it.
                        lateWatch?.stop()
                        address = sighting.url
                        kept.keep(document, runtime: page.installedRuntime)
                        let shown = kept.take(id)
                        document = shown?.runs ?? DocumentRuns(id: id, ranBefore: true)
                        page.resumeRuntime(shown?.runtime)
                        report(.keptDocumentShown(url: sighting.url, title: sighting.title, results: document.ran))
                    } else if sighting.url != address {
                        // A single-page navigation runs nothing; scripts that asked are told of it.
                        address = sighting.url
                        report(.addressChanged(url: sighting.url, title: sighting.title))
                        await announceURLChange(sighting.url, in: document)
                    } else if let opened = try await newWindow(known: &windows) {
                        // The user opened a tab or a window (it is in front): follow it.
                        await leaveWindow()
                        try await page.session.switchToWindow(opened, timeout: 10)
                        page.identify(asTab: DocumentStartInterception.targetID(ofWindow: opened))
                        interception?.follow(window: opened)
                        page.resumeRuntime(nil)
                        (address, document, adopting) = (nil, DocumentRuns(), true)
                        continue
                    }
                    if let url = document.tabsToOpen.first {
                        // GM_openInTab: a new tab, in front, followed like one the user opened.
                        document.tabsToOpen.removeFirst()
                        let tab = try await page.session.newWindow(timeout: 10)
                        windows.insert(tab)
                        await leaveWindow()
                        try await page.session.switchToWindow(tab, timeout: 10)
                        page.identify(asTab: DocumentStartInterception.targetID(ofWindow: tab))
                        interception?.follow(window: tab)
                        page.resumeRuntime(nil)
                        report(.tabOpened(url: url))
                        try await page.session.navigate(to: url, timeout: 60)
                        (address, document, adopting) = (nil, DocumentRuns(), false)
                        continue
                    }
                    adopting = false
                    for request in requests.take() {
                        await perform(request, in: &document, host: host, report: report, edit: edit)
                    }
                    if let saves, await reloadForSaves(saves.settledNames(), at: address, report: report) { continue }
                    if document.hasRuns, page.callsOverlap {
                        if lateWatch?.isRunning != true || lateWatch?.runtime != page.installedRuntime {
                            lateWatch?.stop()
                            let here = address ?? ""
                            lateWatch = page.watchLateUserScriptWork(waitingAtMost: interval) { output in
                                report(.laterOutput(url: here, output: output))
                            }
                        }
                    } else if document.hasRuns {
                        let started = ContinuousClock.now
                        if let late = try? await page.serveLateUserScriptWork(waitingAtMost: interval) {
                            if !late.output.isEmpty { report(.laterOutput(url: address ?? "", output: late.output)) }
                            // A wait that ended at once with nothing to do is not followed by another at once.
                            if late.served == 0, !late.pageIsLeaving, ContinuousClock.now - started < Self.brief { pause = Self.brief }
                        } else {
                            pause = interval
                        }
                    }
                }
            } catch {
                if error.meansTheSessionIsGone {
                    // The followed window was closed: follow one that is left, if any.
                    lateWatch?.stop()
                    guard let (left, now) = await switchToRemainingWindow() else { return .windowClosed(reason: error.description) }
                    for closed in windows.subtracting(left) { host.tabClosed(DocumentStartInterception.targetID(ofWindow: closed)) }
                    page.identify(asTab: DocumentStartInterception.targetID(ofWindow: now))
                    interception?.follow(window: now)
                    page.resumeRuntime(runtimes[now])
                    (windows, address, document, adopting) = (left, nil, DocumentRuns(), true)
                    continue
                }
                // A navigation in progress (chromedriver fails a call whose document unloads) or a
                // dialog the user has open: look again at once, then at the usual pace.
                pause = failedLooks == 0 ? Self.brief : interval
                failedLooks += 1
            }
            if let pause { try? await Task.sleep(for: pause) }
        }
        return .stopped
    }

    /// Reports each library script among `names` (files of the folder whose saves have settled)
    /// and reloads the page once when one of them runs on it, so that the new version runs there
    /// as on a fresh visit; returns whether it did. A version that cannot be used reloads nothing:
    /// what the version before did on the page stays.
    private func reloadForSaves(_ names: [String], at address: String?, report: @Sendable (BrowseEvent) -> Void) async -> Bool {
        let saved = names.filter { $0.hasSuffix(".user.js") }
        guard !saved.isEmpty else { return false }
        let shown = address.flatMap { try? PageURL($0) }
        let runningHere = Set(shown.flatMap { try? library.which(url: $0) }?.map(\.script.id) ?? [])
        let scripts = (try? library.scripts()) ?? []
        var reloads = false
        for name in saved {
            let save = Self.save(ofFile: library.directory.appending(path: name), among: scripts, runningHere: runningHere, at: address)
            if case .reloading = save { reloads = true }
            report(.scriptSaved(file: name, save: save))
        }
        guard reloads else { return false }
        // Reloaded from the page, not navigated to its address: an address with a fragment would
        // only scroll, and a reload is what a person at the browser would do.
        return (try? await page.session.executeScript("setTimeout(function () { location.reload(); }, 0);", arguments: [], timeout: 10)) != nil
    }

    /// What a save of `file` means for the page at `address`.
    static func save(ofFile file: URL, among scripts: [StoredScript], runningHere: Set<ScriptID>, at address: String?) -> ScriptSave {
        guard let bytes = FileManager.default.contents(atPath: file.path(percentEncoded: false)) else { return .removed }
        guard let text = String(data: bytes, encoding: .utf8) else { return .unusable(problems: ["the file is not UTF-8 text"]) }
        let problems = UserScript(text: text).unusableMetadata(expectingBlock: true)
        guard problems.isEmpty else { return .unusable(problems: problems) }
        guard let script = scripts.first(where: { $0.file.lastPathComponent == file.lastPathComponent }) else {
            return .unusable(problems: ["the library cannot read it as one of its scripts (see 'pagescript scripts list')"])
        }
        if let address, runningHere.contains(script.id) { return .reloading(script: script, url: address) }
        return .notOnThisPage(script: script)
    }

    /// Tampermonkey's `urlchange` event, for the scripts here that `@grant window.onurlchange`: a
    /// `urlchange` event with the new `url` on the window, and `window.onurlchange` called when it
    /// is a function. The page could dispatch such an event itself; it only ever tells a script
    /// about the page's own address.
    private func announceURLChange(_ url: String, in document: DocumentRuns) async {
        guard document.results.values.contains(where: { GMGrants(script: $0.script.script).watchesURL }) else { return }
        let script = """
            var change = new Event("urlchange"); change.url = arguments[0]; window.dispatchEvent(change);
            if (typeof window.onurlchange === "function") { window.onurlchange(change); }
            """
        _ = try? await page.session.executeScript(script, arguments: [.string(url)], timeout: 10)
    }

    /// A window or tab that was not open at the last look (the last one listed when several
    /// were opened since); `known` becomes the windows open now.
    private func newWindow(known: inout Set<String>) async throws(WebDriverError) -> String? {
        let handles = try await page.session.windowHandles(timeout: 10)
        defer { known = Set(handles) }
        return handles.last { !known.contains($0) }
    }

    /// Moves the session to the last window still open; the windows open and the one moved to,
    /// or `nil` when none is left (or the browser is gone).
    private func switchToRemainingWindow() async -> (open: Set<String>, current: String)? {
        guard let handles = try? await page.session.windowHandles(timeout: 5), let last = handles.last,
              (try? await page.session.switchToWindow(last, timeout: 5)) != nil else { return nil }
        return (Set(handles), last)
    }

    /// What ran in the document the followed window shows by itself, and where (the page may have
    /// moved on since: a `pushState` once a script had run): the scripts installed before the
    /// document started ran at their own moments in every tab (``DocumentStartInterception``),
    /// and are collected now or, for a tab that was in the background, were when it loaded; the
    /// document keeps the runtime they ran in. An installation none of whose runs is found here is
    /// given back (it is for the document the window is about to show).
    private func collectInstalledRuns(from interception: DocumentStartInterception?) async -> (url: String, results: [LibraryScriptResult])? {
        guard let interception, let window = try? await page.session.windowHandle(timeout: 5) else { return nil }
        let target = DocumentStartInterception.targetID(ofWindow: window)
        switch await interception.takeDocument(inTarget: target) {
        case .none:
            return nil
        case let .collected(url, results, runtime):
            page.resumeRuntime(runtime)
            return (url, results)
        case let .installed(request, installation):
            page.expectDocumentRuns(installation)
            let results = (try? await page.collectDocumentStartRuns()) ?? [:]
            guard let url = results.values.first?.context.url else {
                interception.giveBack(installation, request: request, inTarget: target)
                return nil
            }
            return (url, LibraryRun.results(results, library: library, at: url))
        }
    }

    /// Keeps what ran in the document: none of these scripts runs there again, and their menu
    /// commands and tabs to open are at hand.
    private func keep(_ results: [LibraryScriptResult], at url: String, in document: inout DocumentRuns) {
        // What ran in the page's frames is reported; its menu commands and tabs stay in the frame.
        for entry in results where entry.frame == nil {
            document.tried.insert(entry.script.id)
            if case let .success(result) = entry.outcome {
                document.results[entry.script.id] = (entry.script, result)
                document.ran.append(entry)
                document.tabsToOpen += result.userscript?.tabsToOpen(from: url) ?? []
            }
        }
    }

    /// Runs what matches the browser's address now and has not run in this document, and reports
    /// what ran and what is switched off for the site.
    ///
    /// `expected` is the address the document was seen at: a page that has gone on to its next
    /// document meanwhile runs nothing here (that document's installed scripts ran there, and it is
    /// handled when the follower sees it), so no script runs twice in one document.
    private func runScripts(in document: inout DocumentRuns, at expected: String?, host: GMHost, report: @Sendable (BrowseEvent) -> Void) async {
        do {
            let run = try await LibraryRun.runMatching(library: library, on: page, excluding: document.tried, host: host, expectedURL: expected)
            if let expected, run.url != expected { return }
            if !run.results.isEmpty || document.tried.isEmpty { report(.ran(url: run.url, results: run.results)) }
            keep(run.results, at: run.url, in: &document)
            if let url = try? PageURL(run.url), let matches = try? library.which(url: url, includingInactive: true) {
                let off = matches.filter { if case .disabledOnSite = $0.status { true } else { false } }
                if !off.isEmpty { report(.switchedOff(url: run.url, scripts: off.map(\.script))) }
            }
        } catch {
            report(.failed(url: (try? await page.browserURL()) ?? "", error: error))
        }
    }

    private func perform(_ request: BrowseRequest, in document: inout DocumentRuns, host: GMHost,
                         report: @Sendable (BrowseEvent) -> Void, edit: Editing?) async {
        switch request {
        case let .menuCommand(id, name):
            // A command of a document that is gone has nothing to run on.
            guard let (script, result) = document.results[id] else { return }
            let url = result.context.url
            do {
                let after = try await page.runMenuCommand(name, of: result, script: id)
                let notFound = after.error.flatMap { $0.name == "MenuCommandNotFound" ? $0 : nil }
                let added = ScriptResult(context: after.context, value: nil, console: Array(after.console.dropFirst(result.console.count)),
                                         error: notFound, userscript: after.userscript)
                report(.menuCommandRan(url: url, script: script, name: name, outcome: .success(added)))
            } catch {
                report(.menuCommandRan(url: url, script: script, name: name, outcome: .failure(error)))
            }
        case .toggleScriptsForSite:
            await toggleScriptsForSite(in: &document, host: host, report: report)
        case .editScript:
            document.tabsToOpen += await edit?(page, host) ?? []
        }
    }

    /// Switches the page's running scripts off for its site, or, when none runs, switches the
    /// ones that were off for the site on again and runs them on the page now.
    private func toggleScriptsForSite(in document: inout DocumentRuns, host: GMHost, report: @Sendable (BrowseEvent) -> Void) async {
        let address: String
        do {
            address = try await page.browserURL()
        } catch {
            report(.failed(url: "", error: error))
            return
        }
        guard let url = try? PageURL(address) else {
            report(.failed(url: address, error: .library("this page's address has no site to switch scripts off for")))
            return
        }
        let site = Site(url: url)
        do {
            let matches = try library.which(url: url, includingInactive: true)
            let running = matches.filter(\.runsAutomatically).map(\.script)
            let off = matches.filter { if case .disabledOnSite = $0.status { true } else { false } }.map(\.script)
            let switchingOff = !running.isEmpty
            for script in switchingOff ? running : off {
                try library.setDisabled(switchingOff, id: script.id, on: site)
            }
            report(.siteSwitched(url: address, site: site, scripts: switchingOff ? running : off, isOn: !switchingOff))
            if !switchingOff, !off.isEmpty { await runScripts(in: &document, at: address, host: host, report: report) }
        } catch {
            report(.failed(url: address, error: .library(error.description)))
        }
    }
}
