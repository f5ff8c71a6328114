import Foundation
import SystemSupport

extension PageSession {
    /// How ``openAndRun(_:script:mode:input:timeout:skippingHTTPErrors:)`` went on a page that loaded.
    public enum LoadedRun: Sendable {
        /// The script ran; `httpStatus` is the main document's HTTP status where the browser
        /// says it (Chromium's pages, WebKit's inspector on a MiniBrowser PageScript started).
        case ran(ScriptResult, httpStatus: Int?)
        /// The server answered with an error status (400 or more), so the script was not run.
        case skipped(PageContext, httpStatus: Int)
    }

    /// Navigates to `url` and runs `script` there, as ``open(_:loadTimeout:)`` then
    /// ``run(script:requiredURL:mode:input:timeout:)`` would, in two round trips instead of three or
    /// four: the navigation, then one Execute Script that installs the runtime and runs the
    /// script, after checking in the page that the browser is not showing its error page and,
    /// with `skippingHTTPErrors`, that the server did not answer with an error status.
    ///
    /// What `pagescript batch` does on every page. A script the engine cannot compile, or a page
    /// that breaks the combined call, falls back to the separate installation and run, with the
    /// same outcome.
    ///
    /// ```swift
    /// let page = PageSession(session: session, scriptTimeout: 30)
    /// if case let .ran(result, status) = try await page.openAndRun(url, script: "document.title", timeout: 30) { … }
    /// ```
    ///
    /// - Parameters:
    ///   - url: The page to open.
    ///   - script: The JavaScript.
    ///   - mode: How the text is read.
    ///   - timeout: Seconds for the whole visit: the page's load, then the script in what is left
    ///     (at least one second).
    ///   - skippingHTTPErrors: Whether a page the server answered with 400 or more is skipped.
    /// - Throws: ``InjectionError/navigationFailed(url:reason:)`` and
    ///   ``InjectionError/loadTimedOut(url:seconds:)`` and ``InjectionError/pageChanged(expected:actual:)``
    ///   as ``open(_:loadTimeout:)`` does, then what
    ///   ``run(script:requiredURL:mode:input:timeout:)`` throws.
    public func openAndRun(_ url: String, script: String, mode: ScriptMode = .console, input: JSONValue? = nil, timeout: Double,
                           skippingHTTPErrors: Bool = false) async throws(InjectionError) -> LoadedRun {
        try await landing(at: url, within: timeout) { seconds throws(InjectionError) in
            try await openAndRunOnce(url, script: script, mode: mode, input: input, timeout: seconds, skippingHTTPErrors: skippingHTTPErrors)
        }
    }

    /// One navigation and run of ``openAndRun(_:script:mode:input:timeout:skippingHTTPErrors:)``.
    private func openAndRunOnce(_ url: String, script: String, mode: ScriptMode, input: JSONValue?, timeout: Double,
                                skippingHTTPErrors: Bool) async throws(InjectionError) -> LoadedRun {
        let started = Date()
        let preinstalled = await preinstalledRuntime()
        let prepared = try? PreparedScript(script, mode: mode, input: input)
        let runsAlone = prepared.map { $0.userScript == nil } ?? false
        // Where the browser installs the runtime as a document starts, the run is sent as soon as
        // the new document has started and begins by itself once the load event's handlers have
        // run: the load event's way to PageScript and the call's way back to the page no longer
        // come between the load and the script.
        // Waiting for a quiet network is PageScript's own wait after the load: the run goes after it.
        let progress = try await navigate(to: url, loadTimeout: timeout,
                                          returningAtDocumentStart: preinstalled != nil && runsAlone && waitsUntil != .idle)
        let remaining = { max(1, timeout - Date().timeIntervalSince(started)) }
        let check = loadCheck(requested: url, skipsHTTPErrors: skippingHTTPErrors)
        guard let prepared, runsAlone else {
            return try await openThenRun(url, script: script, mode: mode, input: input, check: check, seconds: remaining())
        }
        let loading = progress == .loading
        // The driver's limit stays the visit's whole time, so it is set once per session; the
        // runtime's own deadline is what the load left.
        try await setDriverScriptTimeout(timeout + Self.driverGrace)
        let seconds = remaining()
        let id = nextRunID()
        // Where the browser installed the runtime as the document started, only the run goes.
        let entry = preinstalled ?? state.read(\.documentEntry)
        let body: ScriptBody
        if let preinstalled {
            body = try ScriptBody.run([prepared], entry: preinstalled)
        } else {
            body = try ScriptBody.installingAndRunning([prepared], entry: entry)
            // The new document's runtime comes without the GM API's page half, whatever the
            // last document's under the same entry had.
            state.update { state in
                if state.userscriptAPIEntry == entry { state.userscriptAPIEntry = nil }
            }
        }
        // Sent before the moment the visit waits for, the run waits for it in the page; sent after
        // it, the run still waits when the page's own navigation put another document there.
        let moment = loadMoment
        let request = RuntimeRequest.run(id: id, requiredURL: nil, deadline: seconds, dialogs: dialogs, scripts: [prepared], body: body,
                                         loadCheck: check, startsAt: loading ? moment : nil, waitsFor: loading ? nil : moment,
                                         loadDeadline: seconds)
        let sentAt = Date().timeIntervalSince1970 * 1000
        let reply: RuntimeReply
        // The call's time is what is left of the visit's (the load included while the page
        // loads): a script that blocks the page ends the visit within a second of its limit.
        let callTimeout = seconds + Self.driverGrace + Self.runMargin
        switch try await execute(body.text, entry: entry, request: request, timeout: callTimeout) {
        case let .reply(received):
            // The page did not load in the visit's time: the run ended before its script started.
            // A document that was usable by then gets the script as it is, run the slow way.
            if loading, received.state == .timedOut, await !hasLoaded() {
                state.update { $0.entry = entry }
                try await continueAfterLoadTimeout(url, seconds: timeout, startedAt: started, timedOutAt: Date())
                return try await openThenRun(url, script: script, mode: mode, input: input, check: check, seconds: remaining())
            }
            reply = received
        case let .interrupted(reason):
            // A dialog, or a page that broke the driver's reply: the run is collected when the
            // runtime got installed, and everything is done separately when it did not.
            let dialogRefusedTheCall = await answerOpenDialog()
            // A runtime the browser installed was there before the call: what matters is whether
            // the run reached it (a dialog the page opened while loading refuses the call itself).
            // Within what is left of the visit: a page that blocks itself after its dialog does
            // not get the session's whole script time for each question.
            let whereabouts: RunWhereabouts = if preinstalled != nil {
                try await whereabouts(ofRun: id, entry: entry, since: sentAt, within: remaining())
            } else {
                try await installation(of: entry, since: sentAt, checking: check, within: remaining())
            }
            // The page did not answer in the visit's time: a script of its own keeps it busy.
            if whereabouts == .busy {
                state.update { $0.entry = entry }
                throw await timedOut(run: id, entry: entry, script: prepared, body: body, seconds: timeout, fallback: try? PageContext(url: url, title: ""))
            }
            // The run started and sent the browser elsewhere: it must not run again there.
            if whereabouts == .left { throw .navigatedAway(to: (try? await browserURL()) ?? "an unknown address") }
            guard whereabouts == .here else {
                if loading { await waitForLoad(seconds: remaining()) }
                // Unless a dialog refused the call, the document it was sent into is gone: the one
                // there now replaced it.
                var next = check
                next.documentReplaced = !dialogRefusedTheCall
                return try await openThenRun(url, script: script, mode: mode, input: input, check: next, seconds: remaining())
            }
            state.update { $0.entry = entry }
            do {
                reply = try await recover(run: id, entry: entry, reason: reason, seconds: seconds, remaining: remaining())
            } catch .timedOut(_, nil) {
                throw await timedOut(run: id, entry: entry, script: prepared, body: body, seconds: timeout, fallback: try? PageContext(url: url, title: ""))
            }
        case .timedOut:
            // No reply by the call's limit: the script, or one of the page's own, is stopped where
            // the engine can, and the visit's time named; a page whose load never ended did not
            // load, whichever engine.
            state.update { $0.entry = entry }
            let stopped = await stopRunningScript()
            if stopped, loading, await !hasLoaded() { throw .loadTimedOut(url: url, seconds: timeout) }
            throw await timedOut(run: id, entry: entry, script: prepared, body: body, seconds: timeout, stopped: stopped,
                                 fallback: try? PageContext(url: url, title: ""))
        case .compileFailed, .notInstalled:
            // The page may have put something of its own under the entry's name first: the next
            // document gets a new entry.
            if preinstalled == nil {
                state.update { state in
                    if state.documentEntry == entry { state.documentEntry = .random() }
                }
            }
            if loading { await waitForLoad(seconds: remaining()) }
            return try await openThenRun(url, script: script, mode: mode, input: input, check: check, seconds: remaining())
        }
        state.update { state in
            state.entry = entry
            state.lastLoadOrigin = reply.loadOrigin
        }
        // The browser stayed on the page it had, or shows one another page sent it to: nothing
        // ran, and nothing may run there under this address.
        try await checkLanding(of: reply, requested: url)
        if reply.skippedLoad != nil {
            let context = try await loadedContext(requested: url, reply: reply)
            if let status = reply.loadStatus, status >= 400, skippingHTTPErrors { return .skipped(context, httpStatus: status) }
            return .ran(try await run(prepared, requiredURL: context.url, timeout: remaining(), waitingFor: loadMoment), httpStatus: reply.loadStatus)
        }
        return .ran(try result(of: reply, script: prepared, body: body, requiredURL: nil, seconds: seconds), httpStatus: reply.loadStatus)
    }

    /// On Chromium, Action.js installed by the browser itself at the start of every new top-level
    /// document of this session (DevTools' `Page.addScriptToEvaluateOnNewDocument`, asked for
    /// once), under an entry chosen here, before any of the page's scripts: the first call in a
    /// document then carries the run alone, not the whole runtime. `nil` elsewhere, or when the
    /// browser refused. A document without it (the source is not evaluated in an error page)
    /// answers "not installed", and the visit installs the runtime itself.
    private func preinstalledRuntime() async -> RuntimeEntry? {
        guard transport.sendsDevToolsCommands else { return nil }
        switch state.read(\.preinstallation) {
        case let .installed(entry): return entry
        case .unavailable: return nil
        case .notAsked: break
        }
        let entry = RuntimeEntry.random()
        var outcome = SessionState.Preinstallation.unavailable
        if let body = try? ScriptBody.install(entry: entry, userscriptAPI: true) {
            // The body starts on the source's third line, where the calls' bodies start too, so
            // the runtime's line calibration holds for them.
            let source = "(function () {\nif (window.top !== window) { return; }\n"
                + ScriptBody.embedding(RuntimeRequest.context, in: body, entry: entry) + "\n})();"
            if (try? await devTools("Page.addScriptToEvaluateOnNewDocument", parameters: ["source": .string(source)],
                                                  timeout: 10)) != nil {
                outcome = .installed(entry)
            }
        }
        state.update { state in
            state.preinstallation = outcome
            // The browser's installation carries the GM API's page half.
            if case let .installed(entry) = outcome { state.userscriptAPIEntry = entry }
        }
        if case .installed = outcome { return entry }
        return nil
    }

    /// Waits until the page's current navigation has loaded, through the driver, whose commands
    /// wait for a navigation in progress (chromedriver's do, whoever started it): the separate
    /// installation and run that follow must find the document loaded, as after ``open(_:loadTimeout:)``.
    private func waitForLoad(seconds: Double) async {
        _ = try? await session.executeScript("return 1", timeout: seconds + Self.transportMargin)
    }

    /// Whether the page's document has finished loading (`document.readyState`), asked on
    /// PageScript's own DevTools connection, which does not wait for the load as the driver's
    /// commands do; `true` when it cannot be asked.
    private func hasLoaded() async -> Bool {
        let parameters: JSONValue = ["expression": "document.readyState", "returnByValue": true]
        guard case let .reply(reply)? = await direct?.evaluate(serializedParameters: parameters.serialized, timeout: 2),
              let state = reply["result"]?["value"]?.stringValue else { return true }
        return state == "complete"
    }

    /// The slow way: the installation, the load checks, and the run, each a call of its own.
    private func openThenRun(_ url: String, script: String, mode: ScriptMode, input: JSONValue?, check: RuntimeRequest.LoadCheck,
                             seconds: Double) async throws(InjectionError) -> LoadedRun {
        let context = try await loadedContext(requested: url, reply: try await checkedInstallation(for: check, timeout: seconds))
        let status = context.httpStatus
        if check.skipsHTTPErrors, let status, status >= 400 { return .skipped(context, httpStatus: status) }
        // Run in the document just checked, or not at all: another can replace it meanwhile.
        return .ran(try await run(script: script, requiredURL: context.url, mode: mode, input: input, timeout: seconds, waitingFor: loadMoment),
                    httpStatus: status)
    }

    /// ``RunWhereabouts/here`` when the runtime under `entry` is in the page's current document, or
    /// the document started after `sentAt` (milliseconds since 1970): either way, the call sent
    /// then reached the runtime, and must not be sent again. The visits of a session install under one entry,
    /// so a runtime found in the document the last visit checked (`check`'s previous origin: the
    /// browser stayed there) is that visit's, not this call's.
    private func installation(of entry: RuntimeEntry, since sentAt: Double, checking check: RuntimeRequest.LoadCheck,
                              within seconds: Double) async throws(InjectionError) -> RunWhereabouts {
        let outcome = try await execute(ScriptBody.call(entry: entry), entry: entry, request: RuntimeRequest.context(checking: check),
                                        timeout: max(seconds, Self.runMargin) + Self.runMargin)
        switch outcome {
        case let .notInstalled(documentStart, _): return (documentStart ?? 0) >= sentAt ? .here : .nowhere
        case let .reply(reply): return reply.skippedLoad != "no-new-document" ? .here : .nowhere
        case .compileFailed, .interrupted: return .here
        case .timedOut: return .busy
        }
    }

    /// Where a run whose call came back without a reply is.
    private enum RunWhereabouts {
        /// In the current document: its reply can be collected.
        case here
        /// In a document the page has left since the call was sent (the current one started
        /// after it): the run started, and may have sent the browser here itself.
        case left
        /// Nowhere: the call never reached a runtime, and may be sent again.
        case nowhere
        /// Unknown: the page did not answer within the visit's time.
        case busy
    }

    /// Where the run `id` is, asked of the runtime under `entry` (the browser's own installation,
    /// in every document of the session): a call that came back without a reply may have started
    /// it (it must not be sent again) or never reached the page. `sentAt`: when the call was
    /// sent, in milliseconds since 1970.
    private func whereabouts(ofRun id: String, entry: RuntimeEntry, since sentAt: Double, within seconds: Double) async throws(InjectionError) -> RunWhereabouts {
        let outcome = try await execute(ScriptBody.call(entry: entry), entry: entry, request: RuntimeRequest.collect(id: id, wait: false),
                                        timeout: max(seconds, Self.runMargin) + Self.runMargin)
        switch outcome {
        case let .reply(reply):
            guard reply.missingRun != nil else { return .here }
            if let started = reply.missingRunDocumentStart, started >= sentAt { return .left }
            return .nowhere
        case .notInstalled: return .nowhere
        case .compileFailed, .interrupted: return .here
        case .timedOut: return .busy
        }
    }
}
