import DevTools
import Foundation
import Injection
import UserScripts
import WebDriver

/// Runs the library's `document-start` scripts before the page's own scripts, in every tab and
/// window of a Chromium that `browse` follows, including those opened later.
///
/// A userscript manager learns where a tab is going before the document exists; WebDriver only
/// sees a page once it is there. So on Chromium, `browse` opens a DevTools connection of its own
/// to the browser (the address chromedriver reports) and follows every tab on it
/// (``TargetFollower``: a new tab or popup waits until it is prepared). In each tab, every
/// top-level document request waits (DevTools' `Fetch` domain, documents only) while PageScript
/// matches its address in Swift, with the library's own rules, and adds each matching
/// `document-start` script for exactly that address (`Page.addScriptToEvaluateOnNewDocument`,
/// the source ``PageSession/documentStartInstallation(of:id:url:host:timeout:)`` makes, which
/// returns at once in any other document). Then the request goes on. The sources of the
/// previous document are removed first, so nothing runs twice and nothing runs elsewhere.
///
/// The runs wait in their documents; ``BrowserFollower`` collects them (and serves their GM API
/// work) when it sees the document, and reports them as having run at `document-start`.
///
/// Closing the connection (``stop()``) detaches every session, which drops what they added and
/// lets any waiting request go on: an attached browser is left as it was.
final class DocumentStartInterception: Sendable {
    private let connection: DevToolsConnection
    private let library: ScriptLibrary
    private let page: PageSession
    private let host: GMHost
    private let state = InterceptionState()

    private init(connection: DevToolsConnection, library: ScriptLibrary, page: PageSession, host: GMHost) {
        self.connection = connection
        self.library = library
        self.page = page
        self.host = host
    }

    /// Starts following the browser of `page` on DevTools, when its driver reports the browser's
    /// debugging address (chromedriver does; WebKit's driver has nothing like it).
    ///
    /// - Returns: `nil` when the engine offers no DevTools; the reason as an error when it does
    ///   but the connection or the following failed (the scripts then run after the load).
    static func start(page: PageSession, library: ScriptLibrary, host: GMHost) async -> Result<DocumentStartInterception, DevToolsError>? {
        guard let address = page.session.capabilities["goog:chromeOptions"]?["debuggerAddress"]?.stringValue else { return nil }
        do throws(DevToolsError) {
            let endpoint = try DevToolsEndpoint(parsing: address)
            let connection = try await DevToolsConnection.connect(to: endpoint, defaultTimeout: 10)
            let interception = DocumentStartInterception(connection: connection, library: library, page: page, host: host)
            do throws(DevToolsError) {
                let follower = try await TargetFollower.start(on: connection, types: ["page"]) { target in
                    interception.prepare(target)
                }
                interception.state.update { $0.follower = follower }
            } catch {
                await connection.close()
                throw error
            }
            return .success(interception)
        } catch {
            return .failure(error)
        }
    }

    /// The commands that set a tab up, and the task that answers its document requests.
    private func prepare(_ target: FollowedTarget) -> [DevToolsCommand] {
        let requests = target.session.events(["Fetch.requestPaused"])
        let handler = Task { [self] in
            for await request in requests {
                await handle(request, in: target)
            }
        }
        state.update { $0.handlers.append(handler) }
        return [
            // Chromium evaluates a session's document-start sources only while its Page domain is on.
            .enablePage,
            // As `run` does: the runtime a script brings (styles, scripts it adds) works on a
            // page whose Content-Security-Policy would refuse it.
            .setBypassCSP(true),
            DevToolsCommand("Fetch.enable", ["patterns": [["urlPattern": "*", "resourceType": "Document", "requestStage": "Request"]]]),
        ]
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

    /// Replaces the tab's `document-start` sources with those of the scripts matching `url`, and
    /// lets the request go on.
    ///
    /// The commands are sent together, without waiting for replies in between: while a
    /// navigation is pending, Chromium holds back every command for the tab's renderer (adding and
    /// removing sources are such commands) until the navigation commits, so waiting for their
    /// replies before letting the request go on would wait forever. The browser still handles a
    /// session's commands in order, so the old sources are gone and the new ones in place before
    /// the new document runs anything.
    private func prepareDocument(at url: String, in target: FollowedTarget, then proceed: DevToolsCommand) async {
        let previous = state.update { $0.tabs.removeValue(forKey: target.targetID) } ?? InterceptionState.TabRuns()
        var installations: [DocumentStartInstallation] = []
        for (script, id) in LibraryRun.documentStartScripts(library: library, address: url) {
            if let installation = try? await page.documentStartInstallation(of: script, id: id, url: url, host: host) {
                installations.append(installation)
            }
        }
        let removals = previous.identifiers.map { DevToolsCommand("Page.removeScriptToEvaluateOnNewDocument", ["identifier": .string($0)]) }
        let additions = installations.map { DevToolsCommand.addScriptToEvaluateOnNewDocument($0.source) }
        let request = state.update { state in
            state.requests += 1
            return state.requests
        }
        let replies = await target.session.send(pipelined: removals + additions + [proceed])
        var runs = InterceptionState.TabRuns(request: request)
        for (installation, reply) in zip(installations, replies.dropFirst(removals.count)) {
            guard let identifier = (try? reply.get())?["identifier"]?.stringValue else { continue }
            runs.identifiers.append(identifier)
            runs.installations.append(installation)
        }
        if !runs.identifiers.isEmpty {
            state.update { state in
                // A newer request in the tab may have been handled meanwhile; its sources stay.
                if state.tabs[target.targetID] == nil { state.tabs[target.targetID] = runs }
            }
        }
    }

    /// The `document-start` runs added for the document the tab `targetID` loads or shows, for
    /// the follower to collect, and the document request they were added for; each run is handed
    /// out once.
    func takeRuns(inTarget targetID: String) -> (request: Int, runs: [DocumentStartInstallation]) {
        state.update { state in
            guard let tab = state.tabs[targetID] else { return (0, []) }
            state.tabs[targetID]?.installations = []
            return (tab.request, tab.installations)
        }
    }

    /// Gives back runs that were not found in the document they were taken for: they belong to
    /// the document still loading in that tab, unless a newer request replaced them meanwhile.
    func giveBack(_ runs: [DocumentStartInstallation], request: Int, inTarget targetID: String) {
        guard !runs.isEmpty else { return }
        state.update { state in
            guard state.tabs[targetID]?.request == request else { return }
            state.tabs[targetID]?.installations += runs
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

/// What the interception keeps between events, behind a lock (which makes `@unchecked Sendable`
/// sound: nothing is reached without it).
private final class InterceptionState: @unchecked Sendable {
    /// The sources added for the document a tab is loading or shows, and their runs not
    /// collected yet.
    struct TabRuns {
        /// Which top-level document request, counted over all tabs, the runs were added for.
        var request = 0
        var identifiers: [String] = []
        var installations: [DocumentStartInstallation] = []
    }

    struct Value {
        var tabs: [String: TabRuns] = [:]
        var handlers: [Task<Void, Never>] = []
        var follower: TargetFollower?
        /// The top-level document requests seen so far.
        var requests = 0
    }

    private let lock = NSLock()
    private var value = Value()

    func update<Result>(_ change: (inout Value) -> Result) -> Result {
        lock.withLock { change(&value) }
    }
}
