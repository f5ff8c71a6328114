import Foundation
import SystemSupport
import UserScripts
import WebDriver

/// A browser session on one page, with PageScript's runtime (Action.js) installed in the page.
///
/// Opening a page installs Action.js once per document, inside a function, leaving only an inert
/// entry point under a random name (see ``ScriptBody``). Running a script then costs one Execute
/// Script call whose body is two constant lines and the script's code; the request travels as the
/// call's argument. When a run is disturbed (a dialog the page opens, a broken transport, a page
/// that navigates), the session asks the runtime for the run's reply again, so nothing the script
/// did is lost to a hiccup, and a page that navigated away is reported as such.
///
/// ```swift
/// let page = PageSession(session: session, scriptTimeout: 30)
/// let context = try await page.open("http://127.0.0.1:8080/")
/// let result = try await page.run(script: "document.title.toUpperCase()")
/// ```
public final class PageSession: Sendable {
    /// The WebDriver session underneath.
    public let session: WebDriverSession
    /// How long a script may run, in seconds, unless a run names its own time.
    public let scriptTimeout: Double
    /// How dialogs are answered while scripts run.
    public let dialogs: DialogPolicy
    /// Whether the page's own Content-Security-Policy is lifted for the whole page (Chromium's
    /// `Page.setBypassCSP`), its own inline scripts and `eval` included. Off unless the user asks:
    /// PageScript's runtime and the user's scripts are compiled outside the policy either way.
    public let bypassesContentSecurityPolicy: Bool
    /// What a navigation waits for before scripts run; for ``LoadWait/domContentLoaded``, the
    /// session must have been made with `pageLoadStrategy` `eager` (``Engines/EngineChoice/waiting(until:)``).
    public let waitsUntil: LoadWait
    /// The tab's DevTools, when the page is not the WebDriver session's current window.
    let route: DevToolsRoute?
    /// The current window's DevTools at the browser's own address, for runs and navigations
    /// (Chromium on this machine).
    let direct: DirectDevTools?
    /// How calls reach the page, chosen once here.
    let transport: any PageTransport
    /// Whether the page is the frame the WebDriver session is switched to (``visitFrames(_:)``),
    /// whose address is read in the frame rather than from the driver (which names the window's).
    let isDriverFrame: Bool
    /// The JavaScript world calls run in: the page's own, or an isolated world made for scripts
    /// that ask for one (`@inject-into content`).
    let world: ScriptWorld

    /// Extra time over a run's time before the client gives up on the driver itself.
    static let transportMargin: Double = 1.5

    /// Extra time over the driver's limit for a run (its deadline and ``driverGrace``) before the
    /// client gives up on the call: a script that blocks the page (`while (true) {}`) keeps the
    /// runtime's own timer from replying, and the run must end within a second of its limit.
    static let runMargin: Double = 0.3

    /// How long a session's first navigation waits for the browser's record of its documents
    /// (WebKit's inspector, set up as the window opens).
    static let documentRecordWait: Double = 1

    /// How long a load that ran out of time waits for the browser to stop it.
    static let stopLoadingWait: Double = 0.3
    /// How long the driver has to say where a navigation that failed left the window.
    static let failedLoadAddressWait: Double = 2
    /// How many times (50 ms apart) an empty error page is asked again for its text.
    static let errorPageWaits = 10

    /// How much longer than a run's own deadline the driver waits, so that the runtime's timer,
    /// which replies with the console lines so far, comes first.
    public static let driverGrace: Double = 0.5

    let state: SessionState

    /// - Parameters:
    ///   - session: The WebDriver session.
    ///   - scriptTimeout: How long a script may run, in seconds.
    ///   - dialogs: How dialogs are answered.
    ///   - bypassesContentSecurityPolicy: Whether to lift the page's Content-Security-Policy for
    ///     the whole page, weakening it (Chromium only; ``bypassesContentSecurityPolicy``).
    ///   - driverScriptTimeout: The script timeout the session was created with, when known (saves
    ///     setting it again before the first run).
    ///   - route: The page's own DevTools, for a page in a tab the WebDriver session is not on
    ///     (``DevToolsRoute``); every call into the page then goes through it. `nil`: the page is
    ///     the session's current window.
    ///   - waitsUntil: What a navigation waits for before scripts run.
    public init(session: WebDriverSession, scriptTimeout: Double, dialogs: DialogPolicy = .dismiss, bypassesContentSecurityPolicy: Bool = false,
                driverScriptTimeout: Double? = nil, route: DevToolsRoute? = nil, waitsUntil: LoadWait = .load) {
        self.session = session
        self.waitsUntil = waitsUntil
        self.scriptTimeout = scriptTimeout
        self.dialogs = dialogs
        self.bypassesContentSecurityPolicy = bypassesContentSecurityPolicy
        self.route = route
        direct = route == nil ? DirectDevTools(session: session) : nil
        transport = Self.transport(for: session, route: route, direct: direct)
        state = SessionState(driverScriptTimeout: driverScriptTimeout)
        isDriverFrame = false
        world = .page
    }

    /// A session on an isolated world of `page`'s document, reached through `route`.
    convenience init(isolatedWorldOf page: PageSession, route: DevToolsRoute) {
        self.init(sharingWith: page, route: route, transport: Self.transport(for: page.session, route: route, direct: nil),
                  isDriverFrame: false, world: .isolated)
    }

    /// A session on the frame the WebDriver session of `page` is switched to: calls go through the
    /// driver's Execute Script, which runs them in that frame; used only while the driver stays
    /// there.
    convenience init(driverFrameOf page: PageSession) {
        self.init(sharingWith: page, route: nil, transport: ExecuteScriptTransport.driver(page.session), isDriverFrame: true, world: .page)
    }

    /// A session on another part of `page`'s document (a frame, a world), with `page`'s WebDriver
    /// session and limits, a state of its own and no direct DevTools connection.
    private init(sharingWith page: PageSession, route: DevToolsRoute?, transport: any PageTransport, isDriverFrame: Bool, world: ScriptWorld) {
        session = page.session
        waitsUntil = page.waitsUntil
        scriptTimeout = page.scriptTimeout
        dialogs = page.dialogs
        bypassesContentSecurityPolicy = page.bypassesContentSecurityPolicy
        self.route = route
        direct = nil
        self.transport = transport
        state = SessionState(driverScriptTimeout: nil)
        self.isDriverFrame = isDriverFrame
        self.world = world
    }

    /// Sends a DevTools command for this page: through its ``DevToolsRoute`` when it has one,
    /// otherwise through the driver (chromedriver's `goog/cdp/execute`, on the current window).
    func devTools(_ method: String, parameters: JSONValue, timeout: Double) async throws(WebDriverError) -> JSONValue {
        if let route { return try await route.send(method, parameters, timeout) }
        return try await session.chromeDevTools(method, parameters: parameters, timeout: timeout)
    }

    /// How long the last ``open(_:loadTimeout:)`` took, in seconds.
    public var lastLoadDuration: Double {
        state.read(\.lastLoadDuration)
    }

    /// Whether the current document's load ran out of time and scripts run on it as it was
    /// (``PageContext/unfinishedLoad``).
    public var lastLoadUnfinished: Bool {
        state.read(\.unfinishedLoad) != nil
    }

    /// Navigates to `url`, installs the runtime and returns the page's context.
    ///
    /// The page's Content-Security-Policy stays in force (unless the session was made to lift
    /// it): the runtime and the user's scripts are compiled outside it, the page's own content
    /// is not.
    ///
    /// - Throws: ``InjectionError/navigationFailed(url:reason:)`` when the page does not load (the
    ///   reason as the browser gave it), ``InjectionError/loadTimedOut(url:seconds:)`` when it does
    ///   not load within `loadTimeout` seconds, ``InjectionError/pageChanged(expected:actual:)``
    ///   when, navigated to twice, the browser shows a page another page sent it to.
    public func open(_ url: String, loadTimeout: Double = 60) async throws(InjectionError) -> PageContext {
        let started = Date()
        let context = try await landing(at: url, within: loadTimeout) { seconds throws(InjectionError) in
            try await navigate(to: url, loadTimeout: seconds)
            let check = loadCheck(requested: url, skipsHTTPErrors: false)
            return try await loadedContext(requested: url, reply: try await checkedInstallation(for: check))
        }
        state.update { $0.lastLoadDuration = Date().timeIntervalSince(started) }
        return context
    }

    /// Does `visit` (a navigation to `url` and what follows it, within the seconds it is given),
    /// and does it once more when it found the browser somewhere other than its navigation led
    /// (``checkLanding(of:requested:)``): the page the session leaves can send the browser
    /// elsewhere as PageScript's navigation begins (a timer that sets `location`), and its
    /// navigation then replaces PageScript's or leaves the browser where it was. The second
    /// navigation starts from where that page sent the browser; an address that itself shows no
    /// page, or whose page sends the browser on through another, is found so again and reported.
    func landing<Output>(at url: String, within seconds: Double,
                         _ visit: (Double) async throws(InjectionError) -> Output) async throws(InjectionError) -> Output {
        let started = Date()
        let downloads = session.downloadMark
        do {
            return try await visit(seconds)
        } catch {
            let landedElsewhere = switch error {
            case .pageChanged: true
            case let .navigationFailed(_, reason): reason == LoadFailure.noNewDocument
            default: false
            }
            let left = seconds - Date().timeIntervalSince(started)
            guard landedElsewhere, left >= 1 else { throw error }
            // A download is never asked for twice: one announced late (Firefox), after the
            // navigation's reply, has been by the time the new document was looked for.
            if let downloads, session.downloadBegan(at: url, since: downloads) {
                throw .navigationFailed(url: url, reason: LoadFailure.download)
            }
            return try await visit(left)
        }
    }

    /// Throws when a navigation to `url` did not land where it led, as the load check in the new
    /// document found: the browser stayed on the document it had (a download, a 204; both
    /// drivers report such a navigation as a success), or shows one that another page sent it
    /// to, not the one asked for or one it led to by a server's redirect or its own script.
    func checkLanding(of reply: RuntimeReply, requested url: String) async throws(InjectionError) {
        switch reply.skippedLoad {
        case "no-new-document": throw .navigationFailed(url: url, reason: LoadFailure.noNewDocument)
        case "other-document": throw .pageChanged(expected: url, actual: reply.loadedElsewhere ?? "an unknown address")
        default: break
        }
        // Without a referrer the page cannot tell a server's redirect from a page that sent the
        // browser there without one; Chromium's DevTools can (a redirect keeps the navigation's
        // loader). Elsewhere such a document counts as the redirect it most often is.
        if reply.arrivedUnreferred, await showsLastNavigationsDocument(requested: url) == false {
            throw .pageChanged(expected: url, actual: reply.loadedElsewhere ?? "an unknown address")
        }
    }

    /// Whether the window shows the document the last navigation (to `url`) made, or one that
    /// document led to, as the browser says outside the page: Chromium's DevTools loader, or
    /// WebKit's inspector record; `nil` when neither can say.
    private func showsLastNavigationsDocument(requested url: String) async -> Bool? {
        if let direct, let shows = await direct.showsLastNavigationsDocument() { return shows }
        guard let mark = state.read(\.navigationRecordMark) else { return nil }
        return session.documentLanding(since: mark, requested: url)?.showsRequestedDocument
    }

    /// The load check for a navigation to `requested` that has returned: with the HTTP status of
    /// the document shown where the browser says it outside the page (WebKit's inspector).
    func loadCheck(requested: String, skipsHTTPErrors: Bool) -> RuntimeRequest.LoadCheck {
        var check = RuntimeRequest.LoadCheck(requested: requested, skipsHTTPErrors: skipsHTTPErrors, previousOrigin: state.read(\.lastLoadOrigin))
        if let mark = state.read(\.navigationRecordMark), let shown = session.documentLanding(since: mark, requested: requested)?.shown,
           let status = shown.status {
            check.knownStatus = (shown.url, status)
        }
        return check
    }

    /// Installs the runtime in the document a navigation to `check`'s address left and returns
    /// its context reply, the load checked. Throws when the navigation did not land where it led
    /// (``checkLanding(of:requested:)``), remembering the document's `performance.timeOrigin`
    /// for the next navigation's check either way.
    func checkedInstallation(for check: RuntimeRequest.LoadCheck, timeout: Double? = nil) async throws(InjectionError) -> RuntimeReply {
        let reply = try await install(answering: RuntimeRequest.context(checking: check), timeout: timeout).reply
        state.update { $0.lastLoadOrigin = reply.loadOrigin }
        try await checkLanding(of: reply, requested: check.requested)
        return reply
    }

    /// Navigates to `url` (lifting the page's Content-Security-Policy first, when the session was
    /// made to) and forgets the runtime of the document left behind. Returns once the new document
    /// has reached what ``waitsUntil`` names; with `returningAtDocumentStart`, where the browser's
    /// own DevTools connection navigates (Chromium, after a session's first page), as soon as it
    /// has started (``LoadProgress/loading``). Where the session's window is followed through
    /// WebDriver BiDi (Firefox), the navigation goes there, so that an address that shows no page
    /// fails at once (``WebDriver/WebDriverSession/navigateThroughBiDi(to:endingAtDOMContentLoaded:timeout:)``).
    /// A load that runs out of time on a document that was usable by then returns too, the load
    /// recorded as unfinished (``PageContext/unfinishedLoad``).
    @discardableResult
    func navigate(to url: String, loadTimeout: Double, returningAtDocumentStart: Bool = false) async throws(InjectionError) -> LoadProgress {
        await liftContentSecurityPolicyIfAsked()
        let started = Date()
        await session.waitForDocumentRecord(within: Self.documentRecordWait)
        let mark = session.documentRecordMark
        state.update { state in
            state.unfinishedLoad = nil
            state.navigationRecordMark = mark
        }
        // Through the browser's own DevTools when the window is attached there (not the
        // session's first navigation); through the driver otherwise, or when that way cannot say.
        if let outcome = await direct?.navigate(to: url, timeout: loadTimeout, returningAtDocumentStart: returningAtDocumentStart,
                                                endingAtDOMContentLoaded: waitsUntil == .domContentLoaded) {
            switch outcome {
            case .loaded, .dialogOpened:
                // A dialog the page opened while loading: the installation answers it.
                forgetDocument()
                if case .loaded = outcome { await waitForQuietNetwork(loadTimeout: loadTimeout, since: started) }
                return .loaded
            case .documentStarted:
                forgetDocument()
                return .loading
            case let .failed(reason):
                throw .navigationFailed(url: url, reason: LoadFailure.reason(driverMessage: reason))
            case .timedOut:
                let timedOutAt = Date()
                try await continueAfterLoadTimeout(url, seconds: loadTimeout, startedAt: started, timedOutAt: timedOutAt)
                return .loaded
            case .replaced:
                // ``landing(at:within:_:)`` navigates once more.
                forgetDocument()
                throw .pageChanged(expected: url, actual: (try? await browserURL()) ?? "an address another page chose")
            }
        }
        // Through WebDriver BiDi where the session's window is followed there (Firefox): an
        // address that shows no page is answered at once, where geckodriver's Navigate To waits
        // for its page-load limit.
        if let outcome = await session.navigateThroughBiDi(to: url, endingAtDOMContentLoaded: waitsUntil == .domContentLoaded,
                                                           timeout: loadTimeout) {
            switch outcome {
            case .loaded, .dialogOpened:
                // A dialog the page opened while loading: the installation answers it.
                forgetDocument()
                if case .loaded = outcome { await waitForQuietNetwork(loadTimeout: loadTimeout, since: started) }
                return .loaded
            case .noNewDocument:
                // Also what a navigation the page left replaced gets: ``landing(at:within:_:)``
                // navigates once more.
                throw .navigationFailed(url: url, reason: LoadFailure.noNewDocument)
            case .downloadBegan:
                // Certain, so not navigated to again (a second download).
                throw .navigationFailed(url: url, reason: LoadFailure.download)
            case let .failed(message):
                let shown = try? await session.currentURL(timeout: Self.failedLoadAddressWait)
                throw .navigationFailed(url: url, reason: LoadFailure.reason(bidiMessage: message, shownURL: shown))
            case .timedOut:
                try await continueAfterLoadTimeout(url, seconds: loadTimeout, startedAt: started, timedOutAt: Date())
                return .loaded
            }
        }
        do {
            // The driver's own page-load limit is `loadTimeout`; past it, a driver stuck behind a
            // busy page is not waited for (by a session that ends after a load that timed out, not
            // even for the driver's own grace: its slot is wanted back).
            let grace = state.read(\.endsAfterLoadTimeouts) ? 0 : Self.driverGrace
            try await session.navigate(to: url, timeout: loadTimeout + grace + Self.runMargin)
        } catch {
            switch error {
            case .protocolError(code: .timeout, _, _), .requestTimedOut:
                let timedOutAt = Date()
                // The page is left as a browser's Stop button leaves it, so that the session's
                // next command does not wait for the rest of its load (WebKit's driver would). A
                // session that ends now does not wait long for it: a page stuck in a script of
                // its own cannot be stopped.
                let stopped = state.read(\.endsAfterLoadTimeouts) ? await stopLoadingBriefly() : await session.stopLoading()
                // A page that PageScript can reach past the driver (WebKit) and that did not stop
                // is busy in a script of its own: not usable, and not asked again.
                if !stopped, session.executesScriptsDirectly { throw .loadTimedOut(url: url, seconds: loadTimeout) }
                try await continueAfterLoadTimeout(url, seconds: loadTimeout, startedAt: started, timedOutAt: timedOutAt)
                return .loaded
            case let .protocolError(code: .unknownError, message, _), let .protocolError(code: .invalidArgument, message, _),
                 let .protocolError(code: .insecureCertificate, message, _):
                throw .navigationFailed(url: url, reason: LoadFailure.reason(driverMessage: message))
            case .protocolError(code: .unexpectedAlertOpen, _, _):
                // A dialog the page opened while loading; the installation answers it.
                break
            default:
                throw .webDriver(error)
            }
        }
        forgetDocument()
        await waitForQuietNetwork(loadTimeout: loadTimeout, since: started)
        return .loaded
    }

    /// After a load that ran out of its `seconds` at `timedOutAt`: returns, the load recorded as
    /// unfinished, when the new document was usable by then (its DOMContentLoaded had passed, as
    /// Navigation Timing in the page says; a document that started before the navigation is the
    /// one it left), and throws ``InjectionError/loadTimedOut(url:seconds:)`` otherwise. A
    /// document whose load goes on is stopped first where the driver would wait for it
    /// (chromedriver), as WebKit's already was.
    func continueAfterLoadTimeout(_ url: String, seconds: Double, startedAt: Date, timedOutAt: Date) async throws(InjectionError) {
        let read = "var entry = performance.getEntriesByType(\"navigation\")[0];"
            + " return entry ? [performance.timeOrigin, entry.domContentLoadedEventStart] : null;"
        // A page that does not answer at once is busy in a script of its own, so not usable: the
        // visit ends within a second of its limit, as before.
        var reading: JSONValue?
        if transport.sendsDevToolsCommands {
            // The driver's commands would wait behind a busy page: PageScript's own DevTools,
            // the window's when attached (not yet on a session's first page), else the browser's
            // one page.
            let parameters: JSONValue = ["expression": .string("window.stop(); (function () { \(read) })()"), "returnByValue": true]
            var outcome = await direct?.evaluate(serializedParameters: parameters.serialized, timeout: Self.usableCheckTime)
            if outcome == nil { outcome = await direct?.evaluateInOnlyPage(serializedParameters: parameters.serialized, timeout: Self.usableCheckTime) }
            switch outcome {
            case let .reply(reply)?:
                reading = reply["result"]?["value"]
            case .failed(.timedOut)?:
                // Busy in a script of its own, so not usable; nothing more is sent to it (the
                // driver's commands would wait behind it).
                throw .loadTimedOut(url: url, seconds: seconds)
            default:
                break
            }
            // Without PageScript's own DevTools (a remote endpoint), the driver's way.
            if direct != nil, reading == nil { throw .loadTimedOut(url: url, seconds: seconds) }
        } else if let outcome = await session.evaluateInWindowThroughBiDi("window.stop(); (function () { \(read) })()", timeout: Self.usableCheckTime) {
            // Firefox: stopped as Chromium's is, on BiDi, which does not wait for the load.
            switch outcome {
            case let .success(value): reading = value
            case .failure(.timedOut): throw .loadTimedOut(url: url, seconds: seconds)
            case .failure: break
            }
        }
        if reading == nil { reading = try? await session.executeScript(read, timeout: Self.usableCheckTime) }
        guard let values = reading?.arrayValue, values.count == 2, let origin = values[0].doubleValue,
              let contentLoaded = values[1].doubleValue, contentLoaded > 0,
              origin >= startedAt.timeIntervalSince1970 * 1000 - Self.clockSlack,
              origin + contentLoaded <= timedOutAt.timeIntervalSince1970 * 1000 + Self.clockSlack
        else { throw .loadTimedOut(url: url, seconds: seconds) }
        state.update { $0.unfinishedLoad = seconds }
        forgetDocument()
    }

    /// How far the page's clock and PageScript's may disagree about one moment, in milliseconds
    /// (the page's times are coarsened).
    private static let clockSlack: Double = 20

    /// How long a page whose load ran out of time has to answer whether it was parsed, in seconds:
    /// one that does not is busy, and the visit must end close to its limit.
    private static let usableCheckTime: Double = 0.5

    /// For ``LoadWait/idle``: waits in the page, after its load, until no resource it asked for
    /// has finished loading for ``LoadWait/quietPeriod``, within what is left of `loadTimeout`
    /// since `started`; a network that stays busy that long leaves the load unfinished.
    private func waitForQuietNetwork(loadTimeout: Double, since started: Date) async {
        guard waitsUntil == .idle else { return }
        let left = max(0, loadTimeout - Date().timeIntervalSince(started))
        let quiet = try? await session.executeScript(Self.quietNetworkScript, arguments: [
            .integer(Int64(LoadWait.quietPeriod * 1000)), .integer(Int64(left * 1000)),
        ], timeout: left + Self.transportMargin)
        if quiet != .bool(true) { state.update { $0.unfinishedLoad = loadTimeout } }
    }

    /// Resolves `true` once no Resource Timing entry has come for `arguments[0]` milliseconds
    /// (counting from the latest one's end), `false` after `arguments[1]` milliseconds.
    private static let quietNetworkScript = """
        var quiet = arguments[0], limit = arguments[1];
        return new Promise(function (resolve) {
            var timer = null, observer = null, cap = null;
            function end(value) {
                if (observer) { observer.disconnect(); }
                clearTimeout(timer);
                clearTimeout(cap);
                resolve(value);
            }
            function wait(ms) {
                clearTimeout(timer);
                timer = setTimeout(function () { end(true); }, ms);
            }
            cap = setTimeout(function () { end(false); }, limit);
            var last = 0, entries = performance.getEntriesByType("resource");
            for (var index = 0; index < entries.length; index++) { last = Math.max(last, entries[index].responseEnd); }
            try {
                observer = new PerformanceObserver(function () { wait(quiet); });
                observer.observe({ type: "resource" });
            } catch (error) {}
            wait(Math.max(0, quiet - (performance.now() - last)));
        });
        """

    /// Tells the session that it ends after a page that did not load in time (a batch replaces
    /// such a session): the load is then given only a moment to stop, which a page stuck in a
    /// script of its own would make wait for good.
    public func endsAfterLoadTimeouts() {
        state.update { $0.endsAfterLoadTimeouts = true }
    }

    /// Asks the browser to stop loading the page, waiting ``stopLoadingWait`` at most: a page
    /// stuck in a script of its own cannot be stopped, and the attempt then goes on by itself.
    /// Returns whether the page stopped in that time.
    private func stopLoadingBriefly() async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let resumed = OnceFlag()
            Task { [session] in
                let stopped = await session.stopLoading()
                if resumed.claim() { continuation.resume(returning: stopped) }
            }
            Task {
                try? await Task.sleep(nanoseconds: UInt64(Self.stopLoadingWait * 1e9))
                if resumed.claim() { continuation.resume(returning: false) }
            }
        }
    }

    /// Where a navigation left the new document.
    enum LoadProgress {
        /// Its load event has fired (or a dialog it opened while loading is open).
        case loaded
        /// It has started and is still loading (a navigation asked to return at its start).
        case loading
    }

    /// A new document: whatever the last one broke is tried afresh.
    private func forgetDocument() {
        state.update { $0.entry = nil }
        transport.documentChanged()
    }

    /// The context of the document a navigation to `requested` left, from an installed runtime's
    /// `reply`; or, when that document is the browser's error page, why the page did not load.
    func loadedContext(requested url: String, reply: RuntimeReply) async throws(InjectionError) -> PageContext {
        var reply = reply
        // WebKit fills its blank error page a moment after the navigation returns.
        for _ in 0..<Self.errorPageWaits where LoadFailure.isErrorPage(requested: url, documentURL: reply.documentURL ?? "")
            && (reply.errorPageText ?? "").allSatisfy(\.isWhitespace) {
            try? await Task.sleep(nanoseconds: 50_000_000)
            reply = try await ask(RuntimeRequest.context)
        }
        if let reason = LoadFailure.reason(requested: url, documentURL: reply.documentURL ?? "", pageText: reply.errorPageText) {
            throw .navigationFailed(url: url, reason: reason)
        }
        return try reply.context().unfinished(after: state.read(\.unfinishedLoad))
    }

    /// The page's URL and title now.
    public func context() async throws(InjectionError) -> PageContext {
        try await ask(RuntimeRequest.context).context()
    }

    /// The page's address as the browser knows it (the page's own script cannot disguise it).
    ///
    /// On Chromium it is read through DevTools where it can be: chromedriver's Get Current URL
    /// runs a function of its own in the page, which a page that replaced its built-ins breaks.
    public func browserURL() async throws(InjectionError) -> String {
        // `location.href` is unforgeable: the page can neither redefine nor shadow it.
        let read: JSONValue = ["expression": "location.href", "returnByValue": true]
        if route == nil, !isDriverFrame, transport.sendsDevToolsCommands {
            if let direct, case let .reply(reply)? = await direct.evaluate(serializedParameters: read.serialized, timeout: scriptTimeout),
               let url = reply["result"]?["value"]?.stringValue {
                return url
            }
            if direct?.isReady != true, let reply = try? await session.chromeDevTools("Runtime.evaluate", parameters: read, timeout: scriptTimeout),
               let url = reply["result"]?["value"]?.stringValue {
                return url
            }
        }
        do throws(WebDriverError) {
            if isDriverFrame {
                // `location.href` is unforgeable, and the driver evaluates this outside the page's
                // reach (frames go this way only on such a driver).
                let value = try await session.executeScript("return location.href", timeout: scriptTimeout + Self.transportMargin)
                guard let url = value.stringValue else { throw WebDriverError.malformedReply(command: "execute script", reason: "no address") }
                return url
            }
            guard let route else { return try await session.currentURL(timeout: scriptTimeout + Self.transportMargin) }
            let reply = try await route.send("Runtime.evaluate", read, scriptTimeout)
            guard let url = reply["result"]?["value"]?.stringValue else { throw WebDriverError.malformedReply(command: "Runtime.evaluate", reason: "no address") }
            return url
        } catch {
            throw .webDriver(error)
        }
    }

    /// Runs `script` on the page and returns its outcome.
    ///
    /// - Parameters:
    ///   - script: The JavaScript.
    ///   - requiredURL: When given, the script runs only if the page is still at exactly this
    ///     address when it would start (checked in the page, in the same round trip); otherwise
    ///     ``InjectionError/pageChanged(expected:actual:)`` is thrown and nothing ran.
    ///   - mode: How the text is read (``ScriptMode``).
    ///   - input: What the script finds as `input` (a batch row), or `nil` for no such name.
    ///   - timeout: How long the script may run, in seconds; ``scriptTimeout`` when `nil`.
    public func run(script: String, requiredURL: String? = nil, mode: ScriptMode = .console, input: JSONValue? = nil,
                    timeout: Double? = nil) async throws(InjectionError) -> ScriptResult {
        try await run(script: script, requiredURL: requiredURL, mode: mode, input: input, timeout: timeout, waitingFor: nil)
    }

    /// ``run(script:requiredURL:mode:input:timeout:)`` in a visit: with a `moment`
    /// (``loadMoment``), a run that finds the document not yet there (the page's own navigation
    /// replaced the one the visit saw loaded) waits for it within `timeout`, as a visit waits.
    func run(script: String, requiredURL: String?, mode: ScriptMode, input: JSONValue?, timeout: Double?,
             waitingFor moment: String?) async throws(InjectionError) -> ScriptResult {
        let prepared: PreparedScript
        do {
            prepared = try PreparedScript(script, mode: mode, userScript: nil, input: input, reusing: state.read(\.lastPrepared))
        } catch {
            return ScriptResult(context: try await context(), value: nil, console: [], error: error, dialogs: takePageDialogs())
        }
        state.update { $0.lastPrepared = prepared }
        return try await run(prepared, requiredURL: requiredURL, timeout: timeout, waitingFor: moment)
    }

    /// A run's body for the runtime at `entry`, bringing the GM API's page half when the script is
    /// a userscript and that runtime is not known to have it. The last one is kept: a script run
    /// again is not laid out again.
    private func runBody(_ script: PreparedScript, entry: RuntimeEntry) throws(InjectionError) -> ScriptBody {
        let key = SessionState.RunBodyKey(
            entry: entry, addingUserscriptAPI: script.userScript != nil && state.read(\.userscriptAPIEntry) != entry,
            code: script.code, prelude: script.prelude, parameters: script.parameters, isAsync: script.isAsync)
        if let last = state.read(\.lastRunBody), last.key == key { return last.body }
        let body = try ScriptBody.run([script], entry: entry, addingUserscriptAPI: key.addingUserscriptAPI)
        state.update { $0.lastRunBody = (key, body) }
        return body
    }

    /// A new run's ID, unique in the process (see ``SessionState/Values/runTag``).
    func nextRunID() -> String {
        state.update { state -> String in
            state.runCount += 1
            return "run-\(state.runTag)-\(state.runCount)"
        }
    }

    /// Runs a prepared script on the page and returns its outcome (see ``run(script:requiredURL:mode:input:timeout:)``).
    public func run(_ script: PreparedScript, requiredURL: String? = nil, timeout: Double? = nil) async throws(InjectionError) -> ScriptResult {
        try await run(script, requiredURL: requiredURL, timeout: timeout, waitingFor: nil)
    }

    /// The moment a visit waits for (`--wait-until`): `DOMContentLoaded`, or `load`.
    var loadMoment: String {
        waitsUntil == .domContentLoaded ? "DOMContentLoaded" : "load"
    }

    /// ``run(_:requiredURL:timeout:)``, waiting for `moment` as
    /// ``run(script:requiredURL:mode:input:timeout:waitingFor:)`` says.
    func run(_ script: PreparedScript, requiredURL: String?, timeout: Double?, waitingFor moment: String?) async throws(InjectionError) -> ScriptResult {
        let seconds = timeout ?? scriptTimeout
        let started = Date()
        try await setDriverScriptTimeout(seconds + Self.driverGrace)
        let id = nextRunID()
        let callTimeout = seconds + Self.driverGrace + Self.runMargin
        var entry = try await installedEntry()
        var body = try runBody(script, entry: entry)
        let request = RuntimeRequest.run(id: id, requiredURL: requiredURL, deadline: seconds, dialogs: dialogs, scripts: [script], body: body,
                                         waitsFor: moment, loadDeadline: moment == nil ? nil : seconds)
        let sentAt = Date().timeIntervalSince1970 * 1000
        var outcome = try await execute(body.text, entry: entry, request: request, timeout: callTimeout, confidential: script.userScript != nil)
        if case let .notInstalled(documentStart, _) = outcome {
            // chromedriver runs a call again in the document a navigation left it with: a document
            // that started after the call was sent came from this run, which is not run twice.
            if let documentStart, documentStart >= sentAt {
                throw .navigatedAway(to: (try? await browserURL()) ?? "an unknown address")
            }
            // Otherwise the page changed documents since the runtime was installed.
            entry = try await install().entry
            body = try runBody(script, entry: entry)
            outcome = try await execute(body.text, entry: entry, request: request, timeout: callTimeout, confidential: script.userScript != nil)
        }
        if case .reply = outcome, script.userScript != nil {
            state.update { $0.userscriptAPIEntry = entry }
        }
        var reply: RuntimeReply
        switch outcome {
        case let .reply(received):
            reply = received
        case let .compileFailed(message, position):
            if let result = try await syntaxErrorResult(script, body: body, engineMessage: message, reportedAt: position) { return result }
            // The code compiles: the page broke the driver's own script machinery.
            guard transport.retryAfterInterference() else {
                throw .pageInterfered(reason: "the driver could not compile PageScript's call: \(message)")
            }
            return try await run(script, requiredURL: requiredURL, timeout: max(0.5, seconds - Date().timeIntervalSince(started)), waitingFor: moment)
        case .notInstalled:
            throw .pageInterfered(reason: "PageScript's runtime vanished from the page as soon as it was installed")
        case let .interrupted(reason):
            let remaining = max(0.5, seconds - Date().timeIntervalSince(started))
            reply = try await recover(run: id, entry: entry, reason: reason, seconds: seconds, remaining: remaining)
        case .timedOut:
            throw await timedOut(run: id, entry: entry, script: script, body: body, seconds: seconds)
        }
        guard let userScript = script.userScript, reply.refusedAt == nil else {
            return try result(of: reply, script: script, body: body, requiredURL: requiredURL, seconds: seconds)
        }
        let served = try await serveUserScript(userScript, run: id, entry: entry, first: reply, seconds: seconds,
                                               deadline: started.addingTimeInterval(seconds))
        do {
            return try result(of: served.reply, script: script, body: body, requiredURL: requiredURL, seconds: seconds).with(userscript: served.activity)
        } catch {
            if case let .timedOut(seconds, partial) = error { throw .timedOut(seconds: seconds, partial: partial?.with(userscript: served.activity)) }
            throw error
        }
    }

    /// Ends the browser session. Idempotent; errors are ignored (the browser may be gone).
    public func close() async {
        await direct?.close()
        await session.delete(timeout: 3)
    }

    func result(of reply: RuntimeReply, script: PreparedScript, body: ScriptBody, requiredURL: String?, seconds: Double) throws(InjectionError) -> ScriptResult {
        if let moved = reply.refusedAt {
            throw .pageChanged(expected: requiredURL ?? "", actual: moved)
        }
        let (result, finished) = try reply.result(ofScript: 0, prepared: script, placement: body.placements[0])
        let withPageDialogs = ScriptResult(
            context: result.context.unfinished(after: state.read(\.unfinishedLoad)), value: result.value, console: result.console, error: result.error,
            dialogs: ScriptDialog.inOrder(takePageDialogs() + result.dialogs))
        switch reply.state {
        case .done? where finished:
            return withPageDialogs
        case .timedOut?:
            let timeout = InjectionError.timeoutError(seconds: seconds)
            throw .timedOut(seconds: seconds, partial: withPageDialogs.failing(with: timeout))
        default:
            throw .pageInterfered(reason: "the run ended without the script's outcome", partial: withPageDialogs)
        }
    }
}
