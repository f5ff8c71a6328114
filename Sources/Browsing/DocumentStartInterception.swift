import DevTools
import Foundation
import PageRuntime
import UserScripts

/// Runs the library's scripts at their `@run-at` moments in every tab and window of a Chromium
/// that `browse` follows, including those opened later and those nobody looks at:
/// `document-start` scripts before the page's own scripts, the others at `DOMContentLoaded` or
/// after the load event.
///
/// A userscript manager learns where a tab is going before the document exists; WebDriver only
/// sees a page once it is there, and one window at a time. So on Chromium, `browse` opens a
/// DevTools connection of its own to the browser (the address chromedriver reports) and follows
/// every tab on it (``TargetFollower``: a new tab or popup waits until it is prepared). In each
/// tab, every top-level document request waits (DevTools' `Fetch` domain, documents only) while
/// PageScript matches its address in Swift, with the library's own rules, and adds the runtime
/// and each matching script for exactly that address (`Page.addScriptToEvaluateOnNewDocument`,
/// the sources ``PageSession/documentInstallation(of:url:host:timeout:layout:)`` makes, which return
/// at once in any other document). Then the request goes on. The sources of the previous
/// document are removed first, so nothing runs twice and nothing runs elsewhere.
///
/// The runs wait in their documents. In the tab the follower is on, ``BrowserFollower`` collects
/// them (and serves their GM API work) when it sees the document, and runs none of those scripts
/// again there. In any other tab they are collected when its document has loaded, on that tab's
/// own DevTools session (a ``PageSession`` with a ``PageRuntime/DevToolsRoute``), or, when the
/// document ran none of them (a popup on its opener's origin keeps its first window), the
/// matching scripts run there then; what the scripts queue later is served there every 250 ms,
/// until the follower comes to the tab and takes the results and the runtime over.
///
/// Closing the connection (``stop()``) detaches every session, which drops what they added and
/// lets any waiting request go on: an attached browser is left as it was.
final class DocumentStartInterception: Sendable {
    private let connection: DevToolsConnection
    let library: ScriptLibrary
    /// The follower's page session: its WebDriver session and settings are those of the
    /// background tabs' sessions too.
    let page: PageSession
    let host: GMHost
    /// Told what ran in background tabs.
    let report: @Sendable (BrowseEvent) -> Void
    let state = InterceptionState()

    private init(connection: DevToolsConnection, library: ScriptLibrary, page: PageSession, host: GMHost,
                 report: @escaping @Sendable (BrowseEvent) -> Void) {
        self.connection = connection
        self.library = library
        self.page = page
        self.host = host
        self.report = report
    }

    /// Starts following the browser of `page` on DevTools, when its driver reports the browser's
    /// debugging address (chromedriver does; WebKit's driver has nothing like it), telling
    /// `report` what runs in the tabs the follower is not on.
    ///
    /// - Returns: `nil` when the engine offers no DevTools; the reason as an error when it does
    ///   but the connection or the following failed (the scripts then run after the load).
    static func start(page: PageSession, library: ScriptLibrary, host: GMHost,
                      report: @escaping @Sendable (BrowseEvent) -> Void) async -> Result<DocumentStartInterception, DevToolsError>? {
        guard let address = page.session.capabilities["goog:chromeOptions"]?["debuggerAddress"]?.stringValue else { return nil }
        do throws(DevToolsError) {
            let endpoint = try DevToolsEndpoint(parsing: address)
            let connection = try await DevToolsConnection.connect(to: endpoint, defaultTimeout: 10)
            let interception = DocumentStartInterception(connection: connection, library: library, page: page, host: host, report: report)
            do throws(DevToolsError) {
                let follower = try await TargetFollower.start(on: connection, types: ["page"]) { target in
                    interception.prepare(target)
                }
                let serving = Task { await interception.serveBackgroundTabs(every: .milliseconds(250)) }
                interception.state.update { state in
                    state.follower = follower
                    state.handlers.append(serving)
                }
            } catch {
                await connection.close()
                throw error
            }
            return .success(interception)
        } catch {
            return .failure(error)
        }
    }

    /// The commands that set a tab up, and the tasks that answer its document requests and
    /// collect its runs in the background when a document has loaded.
    private func prepare(_ target: FollowedTarget) -> [DevToolsCommand] {
        let requests = target.session.events(["Fetch.requestPaused"])
        let loads = target.session.events(["Page.loadEventFired"])
        let handler = Task { [self] in
            for await request in requests {
                await handle(request, in: target)
            }
            // The tab is gone (closed, or the connection ended).
            forget(target.targetID)
        }
        let loadHandler = Task { [self] in
            for await _ in loads {
                await collectInBackground(target)
            }
        }
        state.update { state in
            state.handlers += [handler, loadHandler]
            state.targets[target.targetID] = target
        }
        // Chromium evaluates a session's document-start sources only while its Page domain is on.
        var commands: [DevToolsCommand] = [.enablePage]
        // The page's Content-Security-Policy stays in force unless the user asked to lift it, as
        // in `run`: the runtime and the scripts are compiled outside it either way.
        if page.bypassesContentSecurityPolicy { commands.append(.setBypassCSP(true)) }
        commands.append(DevToolsCommand("Fetch.enable", ["patterns": [["urlPattern": "*", "resourceType": "Document", "requestStage": "Request"]]]))
        return commands
    }

    /// One paused document request: a top-level one gets its scripts; every one goes on.
    private func handle(_ request: DevToolsEvent, in target: FollowedTarget) async {
        guard let requestID = request.parameters["requestId"]?.stringValue else { return }
        let proceed = DevToolsCommand("Fetch.continueRequest", ["requestId": .string(requestID)])
        guard request.parameters["frameId"]?.stringValue == target.targetID, let url = request.parameters["request"]?["url"]?.stringValue else {
            _ = try? await target.session.send(proceed)
            return
        }
        let fragment = request.parameters["request"]?["urlFragment"]?.stringValue ?? ""
        await prepareDocument(at: url + fragment, in: target, then: proceed)
    }

    /// Replaces the tab's sources with the runtime and the scripts that run by themselves at
    /// `url`, and lets the request go on.
    ///
    /// The commands are sent together, without waiting for replies in between: while a
    /// navigation is pending, Chromium holds back every command for the tab's renderer (adding and
    /// removing sources are such commands) until the navigation commits, so waiting for their
    /// replies before letting the request go on would wait forever. The browser still handles a
    /// session's commands in order, so the old sources are gone and the new ones in place before
    /// the new document runs anything.
    private func prepareDocument(at url: String, in target: FollowedTarget, then proceed: DevToolsCommand) async {
        let previous = state.update { $0.tabs.removeValue(forKey: target.targetID) } ?? InterceptionState.TabRuns()
        let scripts = LibraryRun.automaticScripts(library: library, address: url)
        let installation = scripts.isEmpty ? nil : try? await page.documentInstallation(of: scripts, url: url, host: host)
        let removals = previous.identifiers.map { DevToolsCommand("Page.removeScriptToEvaluateOnNewDocument", ["identifier": .string($0)]) }
        let additions = (installation?.sources ?? []).map { DevToolsCommand.addScriptToEvaluateOnNewDocument($0) }
        // The installation is the tab's before the request goes on: the document's load can be
        // reported before the replies below arrive, and whoever collects waits until they have.
        let request = state.update { state in
            state.requests += 1
            if let installation {
                state.tabs[target.targetID] = InterceptionState.TabRuns(request: state.requests, installation: installation, isPending: true)
            }
            return state.requests
        }
        let replies = await target.session.send(pipelined: removals + additions + [proceed])
        let added = replies.dropFirst(removals.count).prefix(additions.count).map { (try? $0.get())?["identifier"]?.stringValue }
        let identifiers = added.compactMap { $0 }
        state.update { state in
            // A newer request in the tab may have been handled meanwhile; its sources stay.
            guard state.tabs[target.targetID]?.request == request else { return }
            // Without the runtime's source nothing runs; a script whose source was refused (the
            // tab is closing) is not found when its run is collected, and runs after the load.
            if let runtimeSource = added.first, runtimeSource != nil {
                state.tabs[target.targetID]?.identifiers = identifiers
                state.tabs[target.targetID]?.isPending = false
            } else {
                state.tabs[target.targetID] = identifiers.isEmpty ? nil : InterceptionState.TabRuns(request: request, identifiers: identifiers)
            }
        }
    }

    /// What was installed for the document the tab `targetID` loads or shows, for the follower,
    /// handed out once: the installation, or the runs' results when they were collected in the
    /// background (waited for while that collection lasts).
    func takeDocument(inTarget targetID: String) async -> TabDocument {
        // A background collection waits for its runs as long as the follower's own would.
        let deadline = ContinuousClock.now + .seconds(page.scriptTimeout + 5)
        while true {
            let taken = state.update { state -> TabDocument? in
                guard let tab = state.tabs[targetID] else { return TabDocument.none }
                if tab.isCollecting || tab.isPending { return ContinuousClock.now < deadline ? nil : TabDocument.none }
                if let collected = tab.collected {
                    state.tabs[targetID]?.collected = nil
                    state.tabs[targetID]?.runtime = nil
                    return .collected(url: collected.url, results: collected.results, runtime: tab.runtime)
                }
                guard let installation = tab.installation else { return TabDocument.none }
                state.tabs[targetID]?.installation = nil
                return .installed(request: tab.request, installation)
            }
            if let taken { return taken }
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Gives back an installation none of whose runs was found in the document it was taken
    /// for: it belongs to the document still loading in that tab, unless a newer request
    /// replaced it meanwhile.
    func giveBack(_ installation: DocumentInstallation, request: Int, inTarget targetID: String) {
        state.update { state in
            guard state.tabs[targetID]?.request == request else { return }
            state.tabs[targetID]?.installation = installation
        }
    }

    /// The DevTools target ID of a chromedriver window handle (`CDwindow-` and the target ID in
    /// older chromedrivers, the target ID itself in newer ones).
    static func targetID(ofWindow handle: String) -> String {
        handle.hasPrefix("CDwindow-") ? String(handle.dropFirst("CDwindow-".count)) : handle
    }

    /// Stops following and closes the connection: the sources go, waiting requests go on.
    func stop() async {
        let (follower, handlers) = state.update { state in
            defer { (state.follower, state.handlers) = (nil, []) }
            return (state.follower, state.handlers)
        }
        await follower?.stop()
        for handler in handlers { handler.cancel() }
        await connection.close()
    }
}

/// What ``DocumentStartInterception/takeDocument(inTarget:)`` hands the follower.
enum TabDocument {
    /// Nothing was installed for the tab's document, or it was handed out before.
    case none
    /// The installation, whose runs the follower collects, and the request it was added for.
    case installed(request: Int, DocumentInstallation)
    /// The scripts ran while the tab was in the background: where, their results, and the
    /// runtime they ran in, which the document keeps.
    case collected(url: String, results: [LibraryScriptResult], runtime: PageSession.InstalledRuntime?)
}

/// What the interception keeps between events, behind a lock (which makes `@unchecked Sendable`
/// sound: nothing is reached without it).
final class InterceptionState: @unchecked Sendable {
    /// The sources added for the document a tab is loading or shows, and its runs while not
    /// collected yet.
    struct TabRuns {
        /// Which top-level document request, counted over all tabs, the runs were added for.
        var request = 0
        var identifiers: [String] = []
        var installation: DocumentInstallation?
        /// Whether the sources are sent but not all confirmed yet.
        var isPending = false
        /// Whether the runs are being collected in the background now.
        var isCollecting = false
        /// What ran in the background, and where, until the follower takes it.
        var collected: (url: String, results: [LibraryScriptResult])?
        /// The runtime of the tab's document while the follower is elsewhere: the work its
        /// scripts queue is served in the background.
        var runtime: PageSession.InstalledRuntime?
        /// The address of the document ``runtime`` is in, as its scripts saw it, which later
        /// output from there is reported with.
        var runtimeURL: String?
        /// The request whose document a watcher serves now (``DocumentStartInterception/serveBackgroundTabs(every:)``).
        var watchedRequest: Int?
    }

    struct Value {
        var tabs: [String: TabRuns] = [:]
        var handlers: [Task<Void, Never>] = []
        var follower: TargetFollower?
        /// The top-level document requests seen so far.
        var requests = 0
        /// Every tab followed on DevTools, by target ID.
        var targets: [String: FollowedTarget] = [:]
        /// The tab the follower follows, which is never served in the background.
        var followed: String?
    }

    private let lock = NSLock()
    private var value = Value()

    func update<Result>(_ change: (inout Value) -> Result) -> Result {
        lock.withLock { change(&value) }
    }
}
