import DevTools
import PageRuntime
import UserScripts
import WebDriver

/// Tabs the follower is not on: their runs are collected and their scripts' work served on the
/// tab's own DevTools session, so that a script in a background tab gets the response to the
/// `GM_xmlhttpRequest` it waits for, and its values are written, without the user switching to it.
extension DocumentStartInterception {
    /// The follower now follows the window `handle`: that tab is left to it.
    func follow(window handle: String) {
        let targetID = Self.targetID(ofWindow: handle)
        state.update { $0.followed = targetID }
    }

    /// Waits, at most `seconds`, until the tab of the window `handle` is set up. The tabs open
    /// before the interception started are set up in the background: a navigation that starts
    /// before that is not intercepted (its `document-start` scripts would run after the page's own).
    func waitUntilSetUp(window handle: String, seconds: Double) async {
        guard let follower = state.update({ $0.follower }) else { return }
        _ = await follower.waitForTarget(Self.targetID(ofWindow: handle), timeout: seconds)
    }

    /// The follower leaves the window `handle`, whose document (at `url`) has `runtime`: what the
    /// document's scripts queue from now on is served in the background until the follower is back.
    func leave(window handle: String, runtime: PageSession.InstalledRuntime?, url: String?) {
        guard let runtime else { return }
        let targetID = Self.targetID(ofWindow: handle)
        state.update { state in
            if state.tabs[targetID] == nil { state.tabs[targetID] = InterceptionState.TabRuns() }
            state.tabs[targetID]?.runtime = runtime
            state.tabs[targetID]?.runtimeURL = url
        }
    }

    /// A tab's document has loaded: when the follower is not on that tab, its runs are collected
    /// now (their GM API work done) and reported, and kept for the follower, which reports them
    /// again when it gets there and runs none of those scripts again. Where none of them is found
    /// (the document did not run what was added for it), the scripts that match run now.
    func collectInBackground(_ target: FollowedTarget) async {
        // The sources may not be confirmed yet (their replies can come after the load).
        let deadline = ContinuousClock.now + .seconds(10)
        var claimed: (request: Int, installation: DocumentInstallation)?
        while claimed == nil {
            let (taken, waits) = state.update { state -> ((request: Int, installation: DocumentInstallation)?, Bool) in
                guard state.followed != target.targetID, let tab = state.tabs[target.targetID], !tab.isCollecting,
                      let installation = tab.installation else { return (nil, false) }
                if tab.isPending { return (nil, ContinuousClock.now < deadline) }
                state.tabs[target.targetID]?.installation = nil
                state.tabs[target.targetID]?.isCollecting = true
                return ((tab.request, installation), false)
            }
            claimed = taken
            guard taken == nil, waits else { break }
            try? await Task.sleep(for: .milliseconds(10))
        }
        guard let claimed else { return }
        let background = backgroundPage(for: target)
        background.resumeRuntime(nil)
        background.expectDocumentRuns(claimed.installation)
        let early = (try? await background.collectDocumentStartRuns()) ?? [:]
        var ran: (url: String, results: [LibraryScriptResult])?
        if let url = early.values.first?.context.url {
            ran = (url, LibraryRun.results(early, library: library, at: url))
        } else if let run = try? await LibraryRun.runMatching(library: library, on: background, host: host), !run.results.isEmpty {
            // The document ran nothing of what was added for it: a popup on its opener's origin
            // keeps the window of its first, empty document, where Chromium evaluated the sources
            // before the address was known. Its scripts run now, after the load, as the follower
            // runs them where the engine has no such hook.
            ran = run
        }
        let runtime = background.installedRuntime
        if let ran {
            let title = ran.results.lazy.compactMap { try? $0.outcome.get().context.title }.first ?? ""
            report(.ranInBackground(url: ran.url, title: title, results: ran.results))
        }
        state.update { state in
            // The tab may have gone on to another document meanwhile: its entry is a new one then.
            guard state.tabs[target.targetID]?.request == claimed.request else { return }
            state.tabs[target.targetID]?.isCollecting = false
            state.tabs[target.targetID]?.collected = ran
            state.tabs[target.targetID]?.runtime = ran == nil ? nil : runtime
            state.tabs[target.targetID]?.runtimeURL = ran?.url
        }
    }

    /// Serves the work queued by the scripts of each tab the follower is not on (a value written
    /// or a request made from a timer or an event handler): each such tab gets a watch of its own
    /// (``PageSession/watchLateUserScriptWork(waitingAtMost:)``), which keeps a wait in the page
    /// for that work, so that one is in place when the page is left and hands over what was
    /// queued until then. Tabs are looked for every `interval`.
    func serveBackgroundTabs(every interval: Duration) async {
        await withDiscardingTaskGroup { group in
            while !Task.isCancelled {
                let due = state.update { state -> [(FollowedTarget, Int, PageSession.InstalledRuntime)] in
                    let due = state.tabs.compactMap { targetID, tab -> (FollowedTarget, Int, PageSession.InstalledRuntime)? in
                        guard targetID != state.followed, !tab.isCollecting, tab.watchedRequest != tab.request, let runtime = tab.runtime,
                              let target = state.targets[targetID] else { return nil }
                        return (target, tab.request, runtime)
                    }
                    for (target, request, _) in due { state.tabs[target.targetID]?.watchedRequest = request }
                    return due
                }
                for (target, request, runtime) in due {
                    group.addTask { await self.watchBackgroundTab(target, request: request, runtime: runtime, waitingAtMost: interval) }
                }
                try? await Task.sleep(for: interval)
            }
            group.cancelAll()
        }
    }

    /// Serves one background tab's document until the follower comes to the tab, the tab moves
    /// on or closes.
    private func watchBackgroundTab(_ target: FollowedTarget, request: Int, runtime: PageSession.InstalledRuntime,
                                    waitingAtMost interval: Duration) async {
        let background = backgroundPage(for: target)
        background.resumeRuntime(runtime)
        defer {
            state.update { state in
                if state.tabs[target.targetID]?.watchedRequest == request { state.tabs[target.targetID]?.watchedRequest = nil }
            }
        }
        let url = state.update { $0.tabs[target.targetID]?.runtimeURL } ?? ""
        let watch = background.watchLateUserScriptWork(waitingAtMost: interval) { output in
            self.report(.laterOutputInBackground(url: url, output: output))
        }
        defer { watch?.stop() }
        while !Task.isCancelled {
            let isDue = state.update { state in
                state.followed != target.targetID && state.tabs[target.targetID]?.request == request && state.tabs[target.targetID]?.runtime == runtime
            }
            guard isDue else { return }
            guard watch?.isRunning == true else {
                // The document was left or is gone (the tab moved on or closed): nothing more to serve there.
                state.update { state in
                    if state.tabs[target.targetID]?.request == request { state.tabs[target.targetID]?.runtime = nil }
                }
                return
            }
            try? await Task.sleep(for: interval / 4)
        }
    }

    /// Drops what is kept for a tab that is gone, and the objects its scripts saved with
    /// `GM_saveTab`.
    func forget(_ targetID: String) {
        state.update { state in
            state.tabs[targetID] = nil
            state.targets[targetID] = nil
        }
        host.tabClosed(targetID)
    }

    /// A session that reaches the page in `target` through the tab's own DevTools session: a new
    /// one for every use, so that a collection and the serving of the same tab never share the
    /// runtime a session remembers.
    private func backgroundPage(for target: FollowedTarget) -> PageSession {
        let session = target.session
        let route = DevToolsRoute { method, parameters, timeout throws(WebDriverError) in
            do throws(DevToolsError) {
                return try await session.send(method, parameters, timeout: timeout)
            } catch {
                throw error.asWebDriverError(method: method)
            }
        }
        let background = PageSession(session: page.session, scriptTimeout: page.scriptTimeout, dialogs: page.dialogs,
                                     bypassesContentSecurityPolicy: page.bypassesContentSecurityPolicy, route: route)
        background.identify(asTab: target.targetID)
        return background
    }
}
