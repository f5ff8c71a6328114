import DevTools
import Foundation
import GMAPI
import NIOConcurrencyHelpers
import SystemSupport
import UserScripts
import WebDriver

/// The session's current window reached at the browser's own DevTools address, for the calls
/// that carry runs into the page (`Runtime.evaluate`).
///
/// chromedriver names the browser's debugging address in its new-session reply and passes
/// DevTools commands on through `goog/cdp/execute`, an HTTP request that chromedriver forwards on
/// its own DevTools connection, a hop more on every call. The same `Runtime.evaluate` on a
/// WebSocket of PageScript's own, in a flat session attached to the window's target (chromedriver's
/// window handles are the browser's target IDs), skips that hop and is much faster.
///
/// Only when the driver and the browser are both on this machine (both addresses are loopback):
/// a grid's node names its own `localhost`. The window's target must exist on the browser the
/// address leads to, so a stranger's browser on that port is never used: its targets have other
/// random IDs. Navigations go this way too once the window is attached (``navigate(to:timeout:)``:
/// chromedriver spends time after each load on checks of its own); everything else (scripts
/// for new documents, the CSP bypass when asked for, answering dialogs) stays with the driver, which keeps its
/// state for the session and follows the navigations made here through its own DevTools events.
///
/// The connection is made and the window's target attached in the background, from the first
/// call on; calls and navigations go through the driver until it is ready, so a run that makes
/// two calls (a cold `pagescript run`) never waits for it.
///
/// A dialog blocks the page, and a `Runtime.evaluate` waiting on it would wait until its
/// timeout; chromedriver notices dialogs and answers at once. So the tab's session has the `Page`
/// domain enabled and its dialog events watched: a dialog that opens while an evaluation waits
/// interrupts it (the run is then recovered as after any interruption: the dialog answered through
/// the driver, the run's reply asked for again), and one open before a call is answered first.
/// `Page.enable` itself waits while a dialog is open (and one open then sends no event): the tab
/// is ready only once it replies, which is after the driver's way has answered the dialog.
final class DirectDevTools: Sendable {
    /// What one evaluation came back with.
    enum Outcome {
        /// The command's `result`.
        case reply(JSONValue)
        /// The command failed (the browser's error, a timeout, the connection's end).
        case failed(DevToolsError)
        /// A dialog opened while the evaluation waited; its reply is dropped.
        case dialogOpened
        /// A dialog was open already: nothing was sent. Answer it and call again.
        case dialogOpenBeforeCall
    }

    /// Where a window's target stands.
    private enum Slot {
        /// Being attached in the background.
        case attaching(Task<Void, Never>)
        /// Attached, with `Page` enabled.
        case ready(Tab)
    }

    private struct Values {
        var connection: Task<DevToolsConnection?, Never>?
        var tabs: [String: Slot] = [:]
        /// Reading the current window's handle, when the session did not know it.
        var readingHandle: Task<Void, Never>?
        var unavailable = false
        /// Evaluations that went this way (for tests).
        var evaluations = 0
        /// Navigations that went this way and ended here (for tests).
        var navigations = 0
        /// The window and loader (DevTools' `loaderId`) of the document the last navigation made,
        /// when it went this way; `nil` after one that went the driver's way.
        var lastDocument: (windowHandle: String, loader: String)?
    }

    private let session: WebDriverSession
    private let endpoint: DevToolsEndpoint
    private let state = NIOLockedValueBox(Values())

    /// A direct way to `session`'s windows, when its driver names a browser on this machine.
    init?(session: WebDriverSession) {
        guard let endpoint = Self.localEndpoint(of: session) else { return nil }
        self.session = session
        self.endpoint = endpoint
    }

    /// The DevTools address of `session`'s browser, when its driver names one and the driver and
    /// the browser are both on this machine; `nil` otherwise.
    static func localEndpoint(of session: WebDriverSession) -> DevToolsEndpoint? {
        guard let address = session.capabilities["goog:chromeOptions"]?["debuggerAddress"]?.stringValue,
              isLoopback(session.client.endpoint.host),
              let endpoint = try? DevToolsEndpoint(parsing: address),
              case let .http(host, _) = endpoint, isLoopback(host) else { return nil }
        return endpoint
    }

    /// Whether `host` (a URL's host, IPv6 with or without brackets) is this machine, as
    /// `@connect` decides it (``GMAPI`` reads hosts with the URL parser of ``UserScripts``).
    static func isLoopback(_ host: String?) -> Bool {
        guard let host, !host.isEmpty else { return false }
        let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return (try? PageURL("http://\(bracketed)/"))?.host.isLoopback ?? false
    }

    /// Whether a call now would go this way (the current window is attached, no dialog open):
    /// one that waits in the page then holds up none of the driver's.
    var isReady: Bool {
        guard let tab = readyTab() else { return false }
        return !tab.hasDialogOpen
    }

    /// Evaluates in the current window with `parameters` (a `Runtime.evaluate` parameter object as
    /// JSON text); `nil` when it cannot go this way now (still attaching, no connection, the
    /// window's target not on it): the driver's way then.
    func evaluate(serializedParameters parameters: String, timeout: Double) async -> Outcome? {
        guard let tab = readyTab() else { return nil }
        guard !tab.hasDialogOpen else { return .dialogOpenBeforeCall }
        state.withLockedValue { $0.evaluations += 1 }
        let outcome = await tab.evaluate(serializedParameters: parameters, timeout: timeout)
        if case let .failed(error) = outcome {
            switch error {
            case .connectionClosed:
                // The browser or the socket is gone: the driver says which, from now on.
                state.withLockedValue { $0.unavailable = true }
            case let .commandFailed(_, code, _, _) where code == Tab.sessionNotFound:
                // The tab detached (closed): nothing ran; the driver reports the window's fate.
                forget(tab)
                return nil
            default:
                break
            }
        }
        return outcome
    }

    /// Evaluates with `parameters` in the browser's one page, found in DevTools' own list of
    /// targets rather than by the driver's window handle: for a moment when the driver cannot be
    /// asked (its commands wait behind a page that is busy, or a load it still waits for). `nil`
    /// when the browser has no page or more than one, or cannot be reached; a page busy in a
    /// script of its own times out.
    func evaluateInOnlyPage(serializedParameters parameters: String, timeout: Double) async -> Outcome? {
        let connection = state.withLockedValue { values -> Task<DevToolsConnection?, Never> in
            if let connection = values.connection { return connection }
            let connection = Task { [endpoint] in try? await DevToolsConnection.connect(to: endpoint, defaultTimeout: 10) }
            values.connection = connection
            return connection
        }
        guard let browser = await connection.value?.browser,
              let targets = try? await browser.send("Target.getTargets", timeout: timeout)["targetInfos"]?.arrayValue else { return nil }
        let pages = targets.filter { $0["type"]?.stringValue == "page" }
        guard pages.count == 1, let target = pages[0]["targetId"]?.stringValue,
              let page = try? await browser.attach(toTarget: target) else { return nil }
        defer { Task { try? await browser.detach(page) } }
        do throws(DevToolsError) {
            return .reply(try await page.send("Runtime.evaluate", serializedParameters: parameters, timeout: timeout))
        } catch {
            return .failed(error)
        }
    }

    /// Stops the JavaScript running in the current window's page now (`Runtime.terminateExecution`,
    /// which the browser carries out even while the page is busy); `false` when the window
    /// cannot be reached this way.
    func terminateExecution() async -> Bool {
        guard let tab = readyTab() else { return false }
        return (try? await tab.devTools.send("Runtime.terminateExecution", [:], timeout: 0.5)) != nil
    }

    /// How a navigation that went this way ended.
    enum NavigationOutcome {
        /// The new document fired its load event, or the navigation stayed in the document (a
        /// fragment).
        case loaded
        /// The browser could not load the page: its `errorText` (`net::ERR_CONNECTION_REFUSED`),
        /// or why it refused the address.
        case failed(String)
        /// A dialog opened while the page loaded; the document is still loading behind it.
        case dialogOpened
        /// No load event within the time given.
        case timedOut
        /// The new document started (its `init` lifecycle event: the runtime the browser installs
        /// at a document's start is in it) and is still loading; only when asked for.
        case documentStarted
        /// Another navigation's document took the window before the one asked for started: the
        /// page being left sent the browser elsewhere as this navigation began.
        case replaced
    }

    /// Navigates the current window to `url` and waits for the new document's load event, as
    /// chromedriver's navigation does with the "normal" page load strategy, without
    /// chromedriver's own checks after the load.
    ///
    /// A navigation the browser aborts (`net::ERR_ABORTED`: a download, a `204` response) fails,
    /// although the window stays on the document it had and chromedriver reports success: a
    /// script run then would run on the previous page, under the new address.
    ///
    /// `nil` when it cannot go this way: the tab is not attached yet (the first navigation of a
    /// session) or its browser refused the events a navigation is followed by, a dialog is open,
    /// the tab or the connection went away, or the renderer crashed.
    /// The driver's navigation then does it and reports what happened as it always did.
    ///
    /// With `returningAtDocumentStart`, returns as soon as the new document starts
    /// (``NavigationOutcome/documentStarted``) rather than at its load event; with
    /// `endingAtDOMContentLoaded`, it has loaded at its DOMContentLoaded (``LoadWait/domContentLoaded``).
    func navigate(to url: String, timeout: Double, returningAtDocumentStart: Bool = false,
                  endingAtDOMContentLoaded: Bool = false) async -> NavigationOutcome? {
        state.withLockedValue { $0.lastDocument = nil }
        guard let tab = readyTab(), tab.navigates, !tab.hasDialogOpen else { return nil }
        switch await tab.navigate(to: url, timeout: timeout, returningAtDocumentStart: returningAtDocumentStart,
                                  endingAt: endingAtDOMContentLoaded ? "DOMContentLoaded" : "load") {
        case let .finished(outcome, loader):
            state.withLockedValue { values in
                values.navigations += 1
                values.lastDocument = loader.map { (tab.windowHandle, $0) }
            }
            return outcome
        case .tabGone:
            forget(tab)
            return nil
        case .connectionGone:
            state.withLockedValue { $0.unavailable = true }
            return nil
        case .driversWay:
            return nil
        }
    }

    /// Whether the current window shows the document the last navigation made (its own script
    /// may have replaced it while it parsed: then that one), by DevTools' loader of the window's
    /// main frame; `nil` when that cannot be known (the navigation went the driver's way).
    /// A server's redirect keeps the loader; a navigation another page started has its own.
    func showsLastNavigationsDocument() async -> Bool? {
        guard let last = state.withLockedValue({ $0.lastDocument }), let tab = readyTab(), tab.windowHandle == last.windowHandle,
              let loader = await tab.mainFrameLoader() else { return nil }
        return loader == last.loader
    }

    /// Tells the current window's tab that no dialog is open (the driver answered it, or found
    /// none): its closing event may come later than the driver's reply.
    func noDialogOpen() {
        guard let handle = session.knownWindowHandle,
              case let .ready(tab)? = state.withLockedValue({ $0.tabs[handle] }) else { return }
        tab.noDialogOpen()
    }

    /// How many evaluations went this way (for tests).
    var evaluations: Int {
        state.withLockedValue(\.evaluations)
    }

    /// How many navigations went this way (for tests).
    var navigations: Int {
        state.withLockedValue(\.navigations)
    }

    /// Waits for what is being attached, then returns the windows whose targets are ready (for
    /// tests).
    var attachedWindowHandles: Set<String> {
        get async {
            while true {
                let pending = state.withLockedValue { values in
                    values.tabs.values.compactMap { slot -> Task<Void, Never>? in
                        if case let .attaching(task) = slot { return task }
                        return nil
                    } + [values.readingHandle].compactMap { $0 }
                }
                if pending.isEmpty { break }
                for task in pending { await task.value }
            }
            return state.withLockedValue { values in
                Set(values.tabs.compactMap { handle, slot in
                    if case .ready = slot { return handle }
                    return nil
                })
            }
        }
    }

    /// Whether calls go through the driver for good (no browser at the address, the connection closed).
    var isUnavailable: Bool {
        state.withLockedValue(\.unavailable)
    }

    /// Closes the connection, if one was made; calls go through the driver from then on.
    func close() async {
        let connection = state.withLockedValue { values -> Task<DevToolsConnection?, Never>? in
            values.unavailable = true
            return values.connection
        }
        await connection?.value?.close()
    }

    /// The ready tab of the session's current window; starts attaching it (or reading which
    /// window is current) in the background when it is not.
    func readyTab() -> Tab? {
        let handle = session.knownWindowHandle
        return state.withLockedValue { values -> Tab? in
            guard !values.unavailable else { return nil }
            guard let handle else {
                if values.readingHandle == nil {
                    values.readingHandle = Task { [self] in
                        _ = try? await session.windowHandle(timeout: 5)
                        state.withLockedValue { $0.readingHandle = nil }
                        // Attach now rather than at the next call, which may be a while.
                        _ = readyTab()
                    }
                }
                return nil
            }
            switch values.tabs[handle] {
            case let .ready(tab)?: return tab
            case .attaching?: return nil
            case nil:
                let connection = values.connection ?? Task { [endpoint] in
                    try? await DevToolsConnection.connect(to: endpoint, defaultTimeout: 10)
                }
                values.connection = connection
                values.tabs[handle] = .attaching(Task { [self] in
                    await attach(handle, connection: connection)
                })
                return nil
            }
        }
    }

    private func attach(_ handle: String, connection: Task<DevToolsConnection?, Never>) async {
        let attachment: Tab.Attachment
        if let connection = await connection.value {
            attachment = await Tab.attach(to: handle, on: connection)
        } else {
            attachment = .failed
        }
        state.withLockedValue { values in
            switch attachment {
            case let .attached(tab): values.tabs[handle] = .ready(tab)
            case .retryLater: values.tabs[handle] = nil
            case .failed:
                // No browser at that address, or none with this window's target: the driver's way for good.
                values.tabs[handle] = nil
                values.unavailable = true
            }
        }
    }

    private func forget(_ tab: Tab) {
        state.withLockedValue { values in
            if case let .ready(known)? = values.tabs[tab.windowHandle], known === tab { values.tabs[tab.windowHandle] = nil }
        }
        tab.stopWatching()
    }
}

extension DirectDevTools {
    /// One window's target, attached with the `Page` domain on for its dialog events.
    final class Tab: Sendable {
        /// CDP's "Session with given id not found".
        static let sessionNotFound = -32001

        let windowHandle: String
        let devTools: DevToolsSession
        private let state = NIOLockedValueBox(TabState())
        private let watcher = NIOLockedValueBox<Task<Void, Never>?>(nil)

        private struct TabState {
            /// Whether a dialog is open, from the dialog events.
            var dialogOpen = false
            /// What interrupts each waiting evaluation.
            var waiting: [Int: @Sendable () -> Void] = [:]
            var nextWaiter = 0
            /// Whether navigations can go through this tab (its lifecycle and crash events are on).
            var navigates = false
        }

        /// Whether navigations can go through this tab; set once, while attaching, before the tab
        /// is handed out.
        var navigates: Bool {
            get { state.withLockedValue(\.navigates) }
            set { state.withLockedValue { $0.navigates = newValue } }
        }

        private init(windowHandle: String, devTools: DevToolsSession) {
            self.windowHandle = windowHandle
            self.devTools = devTools
        }

        /// Where attaching ended.
        enum Attachment {
            case attached(Tab)
            /// `Page.enable` got no reply in time (a dialog open all that while): try again later.
            case retryLater
            /// The browser has no such target.
            case failed
        }

        /// Attaches to the target of `handle`, starts watching its dialogs and enables `Page`.
        static func attach(to handle: String, on connection: DevToolsConnection) async -> Attachment {
            guard let devTools = try? await connection.browser.attach(toTarget: handle) else { return .failed }
            let tab = Tab(windowHandle: handle, devTools: devTools)
            let events = devTools.events(["Page.javascriptDialogOpening", "Page.javascriptDialogClosed"])
            let watching = Task { [tab] in
                for await event in events { tab.observe(event) }
            }
            tab.watcher.withLockedValue { $0 = watching }
            do throws(DevToolsError) {
                _ = try await devTools.send("Page.enable", timeout: 30)
                // For navigations: which document loaded (`Page.lifecycleEvent`), and a renderer
                // that crashed (`Inspector.targetCrashed`). A browser that refuses either still
                // takes the tab's evaluations; its navigations stay with the driver.
                let enabled = await devTools.send(pipelined: [.setLifecycleEventsEnabled(true), DevToolsCommand("Inspector.enable")], timeout: 30)
                tab.navigates = enabled.allSatisfy { (try? $0.get()) != nil }
                return .attached(tab)
            } catch {
                tab.stopWatching()
                try? await connection.browser.detach(devTools)
                if case .timedOut = error { return .retryLater }
                return .failed
            }
        }

        var hasDialogOpen: Bool {
            state.withLockedValue(\.dialogOpen)
        }

        func stopWatching() {
            watcher.withLockedValue { $0?.cancel() }
        }

        func noDialogOpen() {
            state.withLockedValue { $0.dialogOpen = false }
        }

        private func observe(_ event: DevToolsEvent) {
            let interrupted = state.withLockedValue { state -> [@Sendable () -> Void] in
                guard event.method == "Page.javascriptDialogOpening" else {
                    state.dialogOpen = false
                    return []
                }
                state.dialogOpen = true
                defer { state.waiting = [:] }
                return Array(state.waiting.values)
            }
            for interrupt in interrupted { interrupt() }
        }

        /// How ``navigate(to:timeout:)`` ended.
        enum Navigation {
            /// How it ended, and the loader of the document it made, when known.
            case finished(NavigationOutcome, loader: String?)
            /// The tab detached or crashed.
            case tabGone
            /// The connection closed.
            case connectionGone
            /// The command failed in a way that says nothing about the page: left to the driver.
            case driversWay
        }

        /// What ``navigate(to:timeout:)`` waits on, in the order it happened.
        private enum NavigationSignal: Sendable {
            case reply(Result<JSONValue, DevToolsError>)
            case event(DevToolsEvent)
            case eventsEnded
            case deadline
        }

        /// `Page.navigate`, then the `load` lifecycle event of the document it made (or of the
        /// one that document's own script replaced it with before loading: a redirect while the
        /// page parses), or the `lastStep` event named instead of `load`; with
        /// `returningAtDocumentStart`, that document's `init` event instead. A
        /// document of another navigation that starts before this one's did not come from it.
        func navigate(to url: String, timeout: Double, returningAtDocumentStart: Bool, endingAt lastStep: String) async -> Navigation {
            let events = devTools.events(["Page.lifecycleEvent", "Page.javascriptDialogOpening", "Inspector.targetCrashed", "Inspector.detached"])
            let (signals, feed) = AsyncStream.makeStream(of: NavigationSignal.self, bufferingPolicy: .unbounded)
            let devTools = devTools
            Task {
                do throws(DevToolsError) {
                    feed.yield(.reply(.success(try await devTools.send("Page.navigate", ["url": .string(url)], timeout: timeout))))
                } catch {
                    feed.yield(.reply(.failure(error)))
                }
            }
            let forwarding = Task {
                for await event in events { feed.yield(.event(event)) }
                feed.yield(.eventsEnded)
            }
            let timer = Task {
                try? await Task.sleep(nanoseconds: UInt64(max(0, timeout) * 1e9))
                feed.yield(.deadline)
            }
            defer {
                forwarding.cancel()
                timer.cancel()
                feed.finish()
            }
            var awaited: (frame: String, loader: String)?
            var loadedBeforeReply: Set<String> = []
            var startedBeforeReply: Set<String> = []
            // Whether the document this navigation made has started.
            var ownStarted = false
            func finish(_ outcome: NavigationOutcome) -> Navigation { .finished(outcome, loader: awaited?.loader) }
            for await signal in signals {
                switch signal {
                case let .reply(.success(result)):
                    if let errorText = result["errorText"]?.stringValue, !errorText.isEmpty {
                        return finish(.failed(errorText))
                    }
                    guard let frame = result["frameId"]?.stringValue, let loader = result["loaderId"]?.stringValue else {
                        return finish(.loaded)
                    }
                    awaited = (frame, loader)
                    if loadedBeforeReply.contains(loader) { return finish(.loaded) }
                    ownStarted = startedBeforeReply.contains(loader)
                    if returningAtDocumentStart, ownStarted { return finish(.documentStarted) }
                case let .reply(.failure(error)):
                    switch error {
                    case .timedOut: return finish(.timedOut)
                    case .connectionClosed: return .connectionGone
                    case let .commandFailed(_, code, message, _):
                        return code == Self.sessionNotFound ? .tabGone : finish(.failed(message))
                    default: return .driversWay
                    }
                case let .event(event):
                    switch event.method {
                    case "Page.javascriptDialogOpening": return finish(.dialogOpened)
                    case "Inspector.targetCrashed", "Inspector.detached": return .tabGone
                    default: break
                    }
                    guard let step = LifecycleEvent(event), let loader = step.loaderID else { break }
                    guard let expected = awaited else {
                        if step.name == lastStep { loadedBeforeReply.insert(loader) }
                        if step.name == "init" { startedBeforeReply.insert(loader) }
                        break
                    }
                    guard step.frameID == expected.frame else { break }
                    if step.name == "init" {
                        if loader == expected.loader {
                            ownStarted = true
                        } else if !ownStarted {
                            return finish(.replaced)
                        }
                        awaited = (expected.frame, loader)
                        if returningAtDocumentStart { return finish(.documentStarted) }
                    }
                    if step.name == lastStep, loader == awaited?.loader { return finish(.loaded) }
                case .eventsEnded:
                    return .connectionGone
                case .deadline:
                    return finish(.timedOut)
                }
            }
            return .connectionGone
        }

        /// DevTools' loader of the window's main frame (its current document); `nil` when the
        /// browser does not say.
        func mainFrameLoader() async -> String? {
            guard let tree = try? await devTools.send("Page.getFrameTree", [:], timeout: 5) else { return nil }
            return tree["frameTree"]?["frame"]?["loaderId"]?.stringValue
        }

        /// One `Runtime.evaluate`, given up (its reply dropped) when a dialog opens meanwhile; a
        /// cancelled calling task cancels the command.
        func evaluate(serializedParameters parameters: String, timeout: Double) async -> Outcome {
            let answered = OnceFlag()
            let sending = NIOLockedValueBox<Task<Void, Never>?>(nil)
            let waiter = state.withLockedValue { state -> Int in
                defer { state.nextWaiter += 1 }
                return state.nextWaiter
            }
            defer { _ = state.withLockedValue { $0.waiting.removeValue(forKey: waiter) } }
            let devTools = devTools
            return await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
                    let task = Task {
                        let outcome: Outcome
                        do throws(DevToolsError) {
                            outcome = .reply(try await devTools.send("Runtime.evaluate", serializedParameters: parameters, timeout: timeout))
                        } catch {
                            outcome = .failed(error)
                        }
                        if answered.claim() { continuation.resume(returning: outcome) }
                    }
                    sending.withLockedValue { $0 = task }
                    let interrupt: @Sendable () -> Void = {
                        guard answered.claim() else { return }
                        task.cancel()
                        continuation.resume(returning: .dialogOpened)
                    }
                    // A dialog that opened since the caller looked: its event found nothing to interrupt.
                    let openAlready = state.withLockedValue { state -> Bool in
                        if state.dialogOpen { return true }
                        state.waiting[waiter] = interrupt
                        return false
                    }
                    if openAlready { interrupt() }
                    if Task.isCancelled { task.cancel() }
                }
            } onCancel: {
                sending.withLockedValue { $0 }?.cancel()
            }
        }
    }
}
