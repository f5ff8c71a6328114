import Foundation
import GMAPI
import NIOConcurrencyHelpers
import ScriptConsole
import SystemSupport
import UserScripts

extension PageSession {
    /// How many userscript runs the session remembers for work their scripts queue later.
    static let rememberedUserScriptRuns = 16

    /// Serves a userscript run until it ends: the work each reply carries (values to write,
    /// `GM_xmlhttpRequest` calls to make) is done by the host, the responses are delivered into
    /// the page, and the session waits there for the run's next reply. Requests made just before
    /// the run ended are answered too, and so are the ones their callbacks make, until none is
    /// left or the run's time is up. Returns the run's last reply and what the script reported.
    func serveUserScript(_ userScript: GMScriptRun, run id: String, entry: RuntimeEntry, first: RuntimeReply,
                         seconds: Double, deadline: Date) async throws(InjectionError) -> (reply: RuntimeReply, activity: GMActivity) {
        var activity = GMActivity()
        activity.runID = id
        activity.unprovidedGrants = userScript.grants.unprovided
        activity.valuesKeptInLibrary = userScript.keepsValues
        if let exposed = transport.exposesCallsToPage { activity.problems.append(exposed) }
        state.update { state in
            state.userScriptRuns.append((id, userScript))
            if state.userScriptRuns.count > Self.rememberedUserScriptRuns { state.userScriptRuns.removeFirst() }
            if let runtime = state.runtimeRuns, runtime.entry == entry, !runtime.ids.contains(id) {
                state.runtimeRuns?.ids.append(id)
                if runtime.ids.count >= Self.rememberedUserScriptRuns { state.runtimeRuns?.ids.removeFirst() }
            } else if state.runtimeRuns?.entry != entry {
                state.runtimeRuns = (entry, [id])
            }
        }
        var reply = first
        let pageURL = first.documentURL ?? ""
        while true {
            let responses = await serve(reply.work, pageURL: pageURL, entry: entry, activity: &activity)
            let remaining = deadline.timeIntervalSinceNow
            if reply.state == .running {
                reply = try await deliver(responses, run: id, entry: entry, seconds: seconds, remaining: max(0.5, remaining))
                continue
            }
            guard !responses.isEmpty, remaining > 0 else { break }
            // The run has ended: answer its last requests; the page's further work comes back,
            // with what the callbacks logged and asked, which belongs to the run's result. A page
            // that leaves meanwhile (where the session waits on) has its requests made, unanswered.
            let watch = state.read(\.watchAfterRuns).map { watchRequest(waitingAtMost: min($0, .seconds(remaining))) }
            let late = try await deliver(responses, run: nil, lateOf: id, entry: entry, seconds: seconds, remaining: remaining, thenWatching: watch)
            reply = reply.appending(lateOutput: late.json["lateOutput"])
            _ = await serve(late.work, pageURL: pageURL, entry: entry, activity: &activity, andRequests: late.pageIsLeaving)
            let again = late.work.filter { ["xhr", "download", "downloadAbort", "cookie"].contains($0["type"]?.stringValue) }
            guard !again.isEmpty, !late.pageIsLeaving else { break }
            reply = RuntimeReply(final: reply, work: again)
        }
        for report in reply.reports(ofScript: 0) { activity.add(report: report) }
        return (reply, activity)
    }

    /// Makes the delivery of a userscript run's last answers (requests its scripts made just
    /// before the run ended) wait on in the page, at most `wait`, as
    /// ``serveLateUserScriptWork(waitingAtMost:)`` does, before the run's result is returned: for
    /// a session that follows the page afterwards, a page that leaves as soon as an answer reached
    /// it is seen leaving, and what its scripts wrote, and the requests they made as it was left,
    /// are not lost between two calls. `nil`, the default: the result is returned at once.
    ///
    /// ```swift
    /// page.keepWatchingAfterUserScriptRuns(for: .milliseconds(200))
    /// ```
    public func keepWatchingAfterUserScriptRuns(for wait: Duration?) {
        state.update { $0.watchAfterRuns = wait }
    }

    /// Does the work the page's userscripts queued after their runs ended (values written and
    /// requests made from timers and event handlers) and delivers the responses: for a session
    /// that stays open (the editor, a browser left open), called between the user's runs.
    /// Returns what was done, and what the page's scripts logged meanwhile.
    @discardableResult
    public func serveLateUserScriptWork() async throws(InjectionError) -> LateUserScriptWork {
        let reply = try await ask(RuntimeRequest.poll)
        return try await serveLateUserScriptWork(startingWith: reply, entry: installedEntry())
    }

    /// What ``serveLateUserScriptWork(waitingAtMost:)`` found.
    public struct LateUserScriptWork: Sendable, Equatable {
        /// How many pieces of work were done.
        public let served: Int
        /// The page is being left: what it queued until then was served, and nothing more will
        /// come from its document.
        public let pageIsLeaving: Bool
        /// What the page's userscripts logged and asked after their runs ended, since the last
        /// hand-over, script by script.
        public var output: [LateScriptOutput] = []
    }

    /// Waits in the page, at most `wait`, for work its userscripts queue after their runs ended,
    /// and does it as ``serveLateUserScriptWork()`` does. The wait ends as soon as a script waits
    /// for PageSession (a request made), when the page's address changes, and when the page is
    /// being left: then the values written until that moment are kept (a script that writes a
    /// value and then navigates, or writes one as the page is left, loses nothing), and its
    /// requests are made, though the page may be gone before their answers reach it.
    ///
    /// The page is left at `pagehide` where the driver still answers a call then
    /// (WebKitWebDriver), and at `beforeunload` elsewhere: Chromium abandons a pending call when
    /// the next document commits, before the one left sees `pagehide`. The call that delivers the
    /// answers to the page's requests waits on in the same way, so a page that leaves as soon as
    /// an answer reached it is seen leaving. Between two calls no wait
    /// is in place, and Chromium holds a call sent after the page began to leave back until the
    /// next document has loaded: where calls can overlap, ``watchLateUserScriptWork(waitingAtMost:)``
    /// leaves no such moment. A wait the navigation cuts off (the driver's `Document was
    /// unloaded`) ends as the page being left too: it is never sent again into the next document.
    ///
    /// ```swift
    /// while following {
    ///     let late = try await page.serveLateUserScriptWork(waitingAtMost: .milliseconds(200))
    ///     if late.pageIsLeaving { break }
    /// }
    /// ```
    @discardableResult
    public func serveLateUserScriptWork(waitingAtMost wait: Duration) async throws(InjectionError) -> LateUserScriptWork {
        let request = watchRequest(waitingAtMost: wait)
        // A wait cut off by the page's navigation is not sent again into the next document.
        guard let reply = try await askThisDocument(request) else { return LateUserScriptWork(served: 0, pageIsLeaving: true) }
        return try await serveLateUserScriptWork(startingWith: reply, entry: installedEntry(), thenWatching: request)
    }

    /// Whether calls to the page can overlap: they go on a DevTools connection of the session's
    /// own (its current window's, or a tab's), where one that waits in the page holds up no
    /// other. Then ``watchLateUserScriptWork(waitingAtMost:)`` keeps a wait in place for good.
    public var callsOverlap: Bool {
        route != nil || direct?.isReady == true
    }

    /// Keeps a wait for late userscript work in place in the current document from now on, and
    /// does the work each wait hands over (as ``serveLateUserScriptWork(waitingAtMost:)`` does),
    /// until the document is gone, or the watch is stopped. Only in the
    /// document the session shows now: it never reaches, nor installs anything in, a document
    /// that follows.
    ///
    /// Meant for a session whose ``callsOverlap``: a new wait is sent when the newest is half
    /// through, ending it as it arrives, and at once after one that ended early (a request to
    /// make, the page leaving), so that one is always in place, even at the moment a page leaves
    /// right after a wait ended (a page's timers and the wait's own fire together), when Chromium
    /// would hold a wait sent after that back until the next document has loaded. The waits'
    /// work is done in the order they were sent.
    /// Returns `nil` when no runtime is installed in the document.
    ///
    /// ```swift
    /// let watch = page.watchLateUserScriptWork(waitingAtMost: .milliseconds(200))
    /// // … the page is looked at meanwhile …
    /// watch?.stop()
    /// ```
    public func watchLateUserScriptWork(waitingAtMost wait: Duration,
                                        output: @escaping @Sendable ([LateScriptOutput]) -> Void = { _ in }) -> LateWorkWatch? {
        guard let runtime = installedRuntime else { return nil }
        let entry = runtime.entry
        let request = watchRequest(waitingAtMost: wait)
        // One wait, in the document of `entry` only; `nil` for anything but a reply (the
        // document is gone, or something the page did broke the call).
        let oneWait = { @Sendable () async -> RuntimeReply? in
            let outcome = try? await self.execute(ScriptBody.call(entry: entry), entry: entry, request: request,
                                                  timeout: self.scriptTimeout + Self.transportMargin)
            guard case let .reply(reply)? = outcome else { return nil }
            return reply
        }
        let watch = LateWorkWatch(runtime: runtime)
        watch.start {
            let (events, sink) = AsyncStream<LateWorkWatch.Event>.makeStream()
            var waits: [Int: Task<RuntimeReply?, Never>] = [:]
            var sent = 0
            func send() {
                sent += 1
                let number = sent
                waits[number] = Task {
                    let reply = await oneWait()
                    sink.yield(.ended(number, reply))
                    return reply
                }
                Task {
                    try? await Task.sleep(for: wait / 2)
                    sink.yield(.halfTime(number))
                }
            }
            send()
            // The waits' ends in the order they were sent, and the next one to serve.
            var ended: [Int: RuntimeReply?] = [:]
            var next = 1
            // A page that asked the user whether to leave may stay: the watch ends when a wait
            // finds the document gone, or the answers a wait's work brought could not reach it.
            var documentGone = false
            for await event in events {
                switch event {
                case let .halfTime(number) where number == sent:
                    // The newest wait is half through: the next one ends it as it arrives.
                    send()
                case let .ended(number, reply):
                    ended[number] = reply
                    // One that ended early (a request to make, the page leaving) is followed at once.
                    if number == sent { send() }
                default:
                    break
                }
                while !documentGone, let reply = ended.removeValue(forKey: next) {
                    waits[next] = nil
                    next += 1
                    guard let reply else {
                        documentGone = true
                        break
                    }
                    do throws(InjectionError) {
                        let served = try await self.serveLateUserScriptWork(startingWith: reply, entry: entry)
                        if !served.output.isEmpty { output(served.output) }
                    } catch {
                        documentGone = true
                    }
                }
                if documentGone { break }
            }
            sink.finish()
            if documentGone { watch.documentIsGone() }
            // Stopped, or the document gone: what the waits still out hand over is served all the
            // same (the last one ends by its time, or as another watch's wait arrives). A later
            // wait may hold what the page wrote as it was left, though an earlier one's answers
            // could no longer reach it; one that finds nothing is passed over.
            for (_, wait) in waits.sorted(by: { $0.key < $1.key }) {
                guard let reply = await wait.value, let served = try? await self.serveLateUserScriptWork(startingWith: reply, entry: entry) else {
                    continue
                }
                if !served.output.isEmpty { output(served.output) }
            }
        }
        return watch
    }

    private func watchRequest(waitingAtMost wait: Duration) -> JSONValue {
        let milliseconds = Int(wait.components.seconds * 1000 + wait.components.attoseconds / 1_000_000_000_000_000)
        let leavingEvent = session.capabilities["browserName"]?.stringValue == "MiniBrowser" ? "pagehide" : "beforeunload"
        return RuntimeRequest.watch(milliseconds: milliseconds, leavingAt: leavingEvent)
    }

    /// `thenWatching`: each delivery of responses is followed, in the same call, by this watch
    /// (for a session whose calls cannot overlap, where the moment between two calls is unwatched).
    private func serveLateUserScriptWork(startingWith first: RuntimeReply, entry: RuntimeEntry,
                                         thenWatching watch: JSONValue? = nil) async throws(InjectionError) -> LateUserScriptWork {
        var done = 0
        var reply = first
        var leaving = first.pageIsLeaving
        var activity = GMActivity()
        // The address of the document that queued the work (a reply with work names it).
        var pageURL = first.documentURL ?? ""
        if first.documentURL == nil, !first.work.isEmpty { pageURL = (try? await browserURL()) ?? "" }
        // Value changes made elsewhere go in with the first delivery (a page being left has no
        // listeners left to hear them), and so do the notifications of this document's scripts
        // clicked or closed since the last hand-over.
        var changes = leaving ? [] : valueChangesMadeElsewhere(entry: entry)
        var answers = state.read(\.userScriptRuns).last?.run.host.notifications?.takeAnswers(for: entry) ?? []
        while !reply.work.isEmpty || !changes.isEmpty || !answers.isEmpty {
            done += reply.work.count + answers.count
            let served: [JSONValue]
            if watch != nil, !leaving, !callsOverlap, Self.takesTime(reply.work), !Self.reachesTheBrowser(reply.work) {
                let besides = await serveKeepingWaits(reply.work, pageURL: pageURL, entry: entry, activity: &activity)
                served = besides.responses
                done += besides.served
                leaving = leaving || besides.pageIsLeaving
            } else {
                served = await serve(reply.work, pageURL: pageURL, entry: entry, activity: &activity)
            }
            let responses = changes + answers + served
            changes = []
            answers = []
            guard !responses.isEmpty else { break }
            do throws(InjectionError) {
                reply = try await deliver(responses, run: nil, entry: entry, seconds: scriptTimeout, remaining: scriptTimeout, thenWatching: watch)
                leaving = leaving || reply.pageIsLeaving
            } catch {
                // A page being left may be gone: no one is left to hear the answers (and they
                // reach no other document: each runtime has an entry of its own).
                guard leaving else { throw error }
                break
            }
        }
        var work = LateUserScriptWork(served: done, pageIsLeaving: leaving)
        work.output = state.update { state in
            defer { state.laterOutput = [] }
            return state.laterOutput
        } + activity.downloadOutput
        return work
    }

    /// How long each wait lasts that ``serveKeepingWaits(_:pageURL:entry:activity:)`` keeps in the
    /// page: an answer that came is delivered once the wait in place ends.
    static let waitBesideRequests: Duration = .milliseconds(100)

    /// Whether `work` holds requests that take time (`GM_xmlhttpRequest`, `GM_download`).
    static func takesTime(_ work: [JSONValue]) -> Bool {
        work.contains { ["xhr", "download"].contains($0["type"]?.stringValue) }
    }

    /// Whether doing `work` makes calls to the browser (a `<script>` run in the page, a
    /// `GM_cookie` call), which no wait may be in the page beside on a session whose calls cannot
    /// overlap.
    static func reachesTheBrowser(_ work: [JSONValue]) -> Bool {
        work.contains { ["script", "cookie"].contains($0["type"]?.stringValue) }
    }

    /// Does `work`, whose requests take time, on a session whose calls cannot overlap, keeping a
    /// wait in the page meanwhile: without one, a page left while the host makes a request (a
    /// value written at `pagehide`) has no call of PageSession's to hand its work to, and the
    /// work is lost with its document. Each wait lasts ``waitBesideRequests`` at most and ends
    /// early with what the page queued; that work is done at once, beside the requests (a value
    /// written as the page is left is kept whether or not the answers can still reach it), apart
    /// from work that calls the browser (``reachesTheBrowser(_:)``), which waits for the last
    /// wait, since no other call may go in while one is there. The waits stop when the requests
    /// are all done, or the page is being left or gone.
    ///
    /// - Returns: The responses to deliver, in the order the work came; how many pieces of work
    ///   the waits brought; and whether the page is being left.
    private func serveKeepingWaits(_ work: [JSONValue], pageURL: String, entry: RuntimeEntry,
                                   activity: inout GMActivity) async -> (responses: [JSONValue], served: Int, pageIsLeaving: Bool) {
        let request = watchRequest(waitingAtMost: Self.waitBesideRequests)
        let unfinished = NIOLockedValueBox(0)
        var tasks: [Task<(responses: [JSONValue], activity: GMActivity), Never>] = []
        func start(_ items: [JSONValue]) {
            unfinished.withLockedValue { $0 += 1 }
            tasks.append(Task {
                var done = GMActivity()
                let responses = await self.serve(items, pageURL: pageURL, entry: entry, activity: &done)
                unfinished.withLockedValue { $0 -= 1 }
                return (responses, done)
            })
        }
        start(work)
        var served = 0
        var leaving = false
        var callsToTheBrowser: [JSONValue] = []
        while !leaving, unfinished.withLockedValue({ $0 }) > 0 {
            // Anything but a reply: the document is gone, or the page broke the call.
            guard let reply = try? await askThisDocument(request) else {
                leaving = true
                break
            }
            leaving = reply.pageIsLeaving
            guard !reply.work.isEmpty else { continue }
            served += reply.work.count
            if Self.reachesTheBrowser(reply.work) {
                callsToTheBrowser += reply.work
            } else {
                start(reply.work)
            }
        }
        var responses: [JSONValue] = []
        for task in tasks {
            let done = await task.value
            responses += done.responses
            activity.add(served: done.activity)
        }
        if !callsToTheBrowser.isEmpty {
            responses += await serve(callsToTheBrowser, pageURL: pageURL, entry: entry, activity: &activity)
        }
        return (responses, served, leaving)
    }

    /// The value changes the userscript runs in the runtime of `entry` have not heard of yet,
    /// made by other runs of their scripts (in another tab, or a run before in this one) or by
    /// another process, as deliveries for their `GM_addValueChangeListener`s. Runs in other
    /// documents are left out: the changes wait for them.
    private func valueChangesMadeElsewhere(entry: RuntimeEntry) -> [JSONValue] {
        let here = state.update { state -> [(id: String, run: GMScriptRun)] in
            guard let runtime = state.runtimeRuns, runtime.entry == entry else { return [] }
            return state.userScriptRuns.filter { runtime.ids.contains($0.id) }
        }
        guard let host = here.first?.run.host else { return [] }
        return host.valueChanges(for: here.filter { $0.run.host === host })
    }

    /// Names the tab the session's page is in, for `GM_getTab`, `GM_saveTab` and `GM_getTabs`:
    /// a script's tab object lasts as long as the name (``GMHost/tabClosed(_:)`` ends it), across
    /// the tab's navigations. A session that is never named is one tab of its own.
    ///
    /// ```swift
    /// page.identify(asTab: windowHandle)
    /// ```
    public func identify(asTab tab: String) {
        state.update { $0.tab = tab }
    }

    /// The name of the session's tab (``identify(asTab:)``).
    var tabName: String {
        state.update { state in state.tab ?? "session-" + state.runTag }
    }

    /// Does one batch of work: writes the value changes, script by script, and performs the
    /// requests at once, each within its script's `@connect`; shows the notifications, made in
    /// the document of `entry`, whose answers come later (``GMNotificationDisplay``), and sets
    /// the clipboard where the host has one. Returns the responses to deliver.
    func serve(_ work: [JSONValue], pageURL: String, entry: RuntimeEntry?, activity: inout GMActivity, andRequests: Bool = true) async -> [JSONValue] {
        let runs = state.read(\.userScriptRuns)
        func userScript(of item: JSONValue) -> GMScriptRun? {
            guard let id = item["run"]?.stringValue else { return nil }
            return runs.last { $0.id == id }?.run
        }
        var changes: [(runID: String, run: GMScriptRun, changes: [ValueChange])] = []
        var tabAnswers: [JSONValue] = []
        let tab = tabName
        var requests: [(number: JSONValue, details: JSONValue, run: GMScriptRun)] = []
        var downloads: [(number: JSONValue, details: JSONValue, run: GMScriptRun, key: String)] = []
        var aborts: [(key: String, run: GMScriptRun)] = []
        var cookieCalls: [(item: JSONValue, run: GMScriptRun)] = []
        var refusedScripts: [String] = []
        for item in work {
            guard let run = userScript(of: item) else { continue }
            switch item["type"]?.stringValue {
            case "value":
                guard let json = item["change"], let change = try? ValueChange(json: json), let runID = item["run"]?.stringValue else { continue }
                if let index = changes.lastIndex(where: { $0.runID == runID }) {
                    changes[index].changes.append(change)
                } else {
                    changes.append((runID, run, [change]))
                }
            case "tab":
                // In the order made: a save is seen by the calls after it, in every tab.
                if let number = item["request"] {
                    tabAnswers.append(["request": number, "response": run.host.tabCall(item, for: run, in: tab)])
                }
            case "xhr":
                if let number = item["request"], let details = item["details"] { requests.append((number, details, run)) }
            case "download":
                if let number = item["request"], let details = item["details"], let runID = item["run"]?.stringValue {
                    downloads.append((number, details, run, GMHost.downloadKey(run: runID, request: number)))
                }
            case "downloadAbort":
                if let number = item["request"], let runID = item["run"]?.stringValue { aborts.append((GMHost.downloadKey(run: runID, request: number), run)) }
            case "cookie":
                if item["request"] != nil { cookieCalls.append((item, run)) }
            case "notification":
                if let number = item["request"], let details = item["details"], let entry, let display = run.host.notifications,
                   let problem = await display.show(details, request: number, of: run, in: entry) {
                    activity.problems.append(problem)
                }
            case "clipboard":
                if let clipboard = run.host.clipboard,
                   let problem = await clipboard.set(item["data"]?.stringValue ?? "", mimeType: item["mimetype"]?.stringValue ?? "text/plain") {
                    activity.problems.append("the clipboard was not set: \(problem)")
                }
            case "script":
                if let code = item["code"]?.stringValue { refusedScripts.append(code) }
            default:
                continue
            }
        }
        // An inline <script> from GM_addElement that the page's policy refused runs as the user's
        // own code does: as an Execute Script body, which the policy does not govern.
        for code in refusedScripts {
            do {
                // A page in a background tab is reached through its own DevTools, never through
                // the driver's current window, which shows another page.
                _ = try await transport.run(code, timeout: scriptTimeout)
            } catch {
                activity.problems.append("the <script> GM_addElement added (refused by the page's Content-Security-Policy, so run by PageScript) failed: \(error)")
            }
        }
        for batch in changes {
            if let problem = batch.run.host.apply(batch.changes, for: batch.run, runID: batch.runID) {
                activity.problems.append(problem)
            } else {
                activity.valueWrites += batch.changes.count
            }
        }
        // A download the script aborted before PageScript reached it is never made; one aborted
        // after its file was saved (its answer was on the way) has the file removed.
        let abortedKeys = Set(aborts.map(\.key))
        downloads.removeAll { abortedKeys.contains($0.key) }
        for abort in aborts {
            if let removed = abort.run.host.removeSavedDownload(abort.key) { activity.record(aborted: removed, by: abort.run) }
        }
        // Cookie calls, one after another, in the order the scripts made them: a list after a set
        // sees the cookie set.
        var sequentialAnswers: [JSONValue] = andRequests ? tabAnswers : []
        if andRequests {
            for call in cookieCalls {
                let (response, record) = await performCookieCall(call.item, for: call.run, pageURL: pageURL)
                activity.cookies.append(record)
                sequentialAnswers.append(["request": call.item["request"] ?? .null, "response": response])
            }
        }
        guard andRequests, !requests.isEmpty || !downloads.isEmpty else { return sequentialAnswers }
        let requestCount = requests.count
        let answered = await withTaskGroup(of: (Int, JSONValue, GMDownloadRecord?).self) { group in
            for (index, request) in requests.enumerated() {
                group.addTask {
                    (index, ["request": request.number, "response": await request.run.host.perform(request.details, for: request.run, pageURL: pageURL)], nil)
                }
            }
            for (offset, download) in downloads.enumerated() {
                group.addTask {
                    let record = await download.run.host.download(download.details, for: download.run, pageURL: pageURL, key: download.key)
                    return (requestCount + offset, ["request": download.number, "response": record.pageJSON], record)
                }
            }
            var answers = [(JSONValue, GMDownloadRecord?)](repeating: (.null, nil), count: requestCount + downloads.count)
            for await (index, response, record) in group { answers[index] = (response, record) }
            return answers
        }
        for (offset, download) in downloads.enumerated() {
            if let record = answered[requestCount + offset].1 { activity.record(download: record, by: download.run) }
        }
        return sequentialAnswers + answered.map(\.0)
    }

    /// Delivers responses into the page; for a run that is still going (`run` given), waits for
    /// its next reply, else returns the work queued after runs ended.
    private func deliver(_ responses: [JSONValue], run id: String?, lateOf ended: String? = nil, entry: RuntimeEntry, seconds: Double,
                         remaining: Double, thenWatching watch: JSONValue? = nil) async throws(InjectionError) -> RuntimeReply {
        let request = RuntimeRequest.deliver(id: id, responses: responses, wait: id != nil, lateOf: ended, thenWatching: watch)
        let outcome = try await execute(ScriptBody.call(entry: entry), entry: entry, request: request,
                                        timeout: remaining + Self.driverGrace + Self.transportMargin, confidential: true)
        switch outcome {
        case let .reply(reply):
            return reply
        case .notInstalled:
            throw .navigatedAway(to: (try? await browserURL()) ?? "an unknown address")
        case .timedOut:
            throw .timedOut(seconds: seconds)
        case let .compileFailed(message, _):
            throw .pageInterfered(reason: message)
        case let .interrupted(reason):
            guard let id else { throw .pageInterfered(reason: reason) }
            return try await recover(run: id, entry: entry, reason: reason, seconds: seconds, remaining: remaining)
        }
    }
}

extension RuntimeReply {
    /// A run's final reply with what its scripts logged and asked after it ended (the
    /// `lateOutput` of a late delivery: one `{"console","dialogs"}` per script) added to each
    /// script's own.
    func appending(lateOutput: JSONValue?) -> RuntimeReply {
        guard let late = lateOutput?.arrayValue, case let .object(members) = json, let scripts = json["scripts"]?.arrayValue else { return self }
        let merged: [JSONValue] = scripts.enumerated().map { index, script in
            guard index < late.count, case var .object(fields) = script else { return script }
            for name in ["console", "dialogs"] {
                let added = late[index][name]?.arrayValue ?? []
                guard !added.isEmpty else { continue }
                if let at = fields.firstIndex(where: { $0.key == name }) {
                    fields[at].value = .array((fields[at].value.arrayValue ?? []) + added)
                } else {
                    fields.append((key: name, value: .array(added)))
                }
            }
            return .object(fields)
        }
        return RuntimeReply(json: .object(members.map { $0.key == "scripts" ? (key: "scripts", value: .array(merged)) : $0 }))
    }

    /// A run's final reply with `work` in place of its own (requests queued after it ended).
    init(final: RuntimeReply, work: [JSONValue]) {
        guard case let .object(members) = final.json else {
            self = final
            return
        }
        self.init(json: .object(members.filter { $0.key != "work" } + [("work", .array(work))]))
    }
}

extension PageSession {
    /// Runs a userscript with the GM API: prepares its run with `host` (values, `GM_info`, files),
    /// runs it, and serves its values and requests until it ends.
    ///
    /// A script that asks for an isolated world (``UserScripts/ScriptWorld``: `@inject-into
    /// content`, `@sandbox DOM`) runs in one made in the document where Chromium's DevTools make
    /// one; elsewhere it runs in the page's world and its result's ``GMActivity/problems`` say so.
    /// (A menu command of a script run in an isolated world is not reached by
    /// ``runMenuCommand(_:of:script:)``.)
    ///
    /// - Parameters:
    ///   - script: The userscript.
    ///   - id: Its ID in the library; `nil` for a script that is not in it.
    ///   - host: The session's host half of the GM API.
    ///   - mode: How the text is read (``ScriptMode/console`` for `-e` code with a metadata block).
    ///   - input: What the script finds as `input` (a batch row), or `nil` for no such name.
    ///   - requiredURL: The address the page must still have (see ``run(script:requiredURL:mode:input:timeout:)``).
    ///   - timeout: How long the script may run, in seconds.
    public func run(userScript script: UserScript, id: ScriptID?, host: GMHost, mode: ScriptMode = .userscript, input: JSONValue? = nil,
                    requiredURL: String? = nil, timeout: Double? = nil) async throws(InjectionError) -> ScriptResult {
        let asked = script.requestedWorld
        guard asked.world == .isolated, world == .page else {
            return try await runInThisWorld(userScript: script, id: id, host: host, mode: mode, input: input, requiredURL: requiredURL, timeout: timeout)
        }
        switch await isolatedWorld() {
        case let .success(isolated):
            return try await isolated.runInThisWorld(userScript: script, id: id, host: host, mode: mode, input: input, requiredURL: requiredURL,
                                                     timeout: timeout)
        case let .failure(reason):
            let result = try await runInThisWorld(userScript: script, id: id, host: host, mode: mode, input: input, requiredURL: requiredURL,
                                                  timeout: timeout)
            var activity = result.userscript ?? GMActivity()
            activity.problems.append("\(asked.line ?? "the script") asks for an isolated world, which shares only the DOM with the page; "
                                     + "\(reason.description), so it ran in the page's own world, where the page's scripts can see and change its globals")
            return result.with(userscript: activity)
        }
    }

    /// Runs a userscript in this session's world (see ``run(userScript:id:host:mode:input:requiredURL:timeout:)``).
    func runInThisWorld(userScript script: UserScript, id: ScriptID?, host: GMHost, mode: ScriptMode, input: JSONValue? = nil,
                        requiredURL: String?, timeout: Double?) async throws(InjectionError) -> ScriptResult {
        let userScript = try await host.prepare(script, id: id, environment: gmEnvironment)
        let prepared: PreparedScript
        do {
            prepared = try PreparedScript(script.text, mode: mode, userScript: userScript, input: input, reusing: state.read(\.lastPrepared))
            state.update { $0.lastPrepared = prepared }
        } catch {
            var activity = GMActivity()
            activity.unprovidedGrants = userScript.grants.unprovided
            return ScriptResult(context: try await context(), value: nil, console: [], error: error, dialogs: takePageDialogs(), userscript: activity)
        }
        return try await run(prepared, requiredURL: requiredURL, timeout: timeout)
    }
}

extension PageSession {
    /// The browser and world of this session, for `GM_info` (``GMAPI/GMEnvironment``).
    var gmEnvironment: GMEnvironment {
        var reported: [String: String] = [:]
        for key in ["browserName", "browserVersion", "platformName"] {
            if let value = session.capabilities[key]?.stringValue { reported[key] = value }
        }
        return GMEnvironment(capabilities: reported, isolated: world == .isolated)
    }
}

extension PageSession {
    /// Runs the menu command `name` that the userscript run of `result` registered with
    /// `GM_registerMenuCommand`, in the document that run is in (which must be the one the session
    /// shows now), and returns `result` with the command's console lines added (or failing with
    /// `MenuCommandNotFound`, naming the commands there are). The command's console lines are
    /// reported here only: never again among the lines logged later
    /// (``serveLateUserScriptWork(waitingAtMost:)``).
    ///
    /// - Parameters:
    ///   - name: The command's name, as the script registered it.
    ///   - result: The result of the run that registered it. The same script may have run
    ///     more than once in the session (in another document, another tab, or again in this
    ///     one): only that run's commands are run.
    ///   - script: Whose command it is, for a result that is not a served userscript run's: the
    ///     last run of that library script; the last userscript run when `nil`.
    public func runMenuCommand(_ name: String, of result: ScriptResult, script: ScriptID? = nil) async throws(InjectionError) -> ScriptResult {
        let runs = state.read(\.userScriptRuns)
        guard let runID = result.userscript?.runID ?? (script.map({ id in runs.last { $0.run.id == id } }) ?? runs.last)?.id else {
            return result.failing(with: ScriptError(name: "MenuCommandNotFound", message: "no userscript ran, so there is no menu command \(name)"))
        }
        let reply = try await ask(RuntimeRequest.menu(id: runID, script: 0, name: name))
        guard reply.json["ranMenuCommand"] == .bool(true) else {
            let known = result.userscript?.menuCommands ?? []
            let message = "the script registered no menu command named \(name)"
                + (known.isEmpty ? "" : "; it registered: " + known.joined(separator: ", "))
            return result.failing(with: ScriptError(name: "MenuCommandNotFound", message: message))
        }
        var activity = result.userscript ?? GMActivity()
        let responses = await serve(reply.work, pageURL: result.context.url, entry: state.read(\.entry), activity: &activity)
        if !responses.isEmpty, let entry = state.read(\.entry) {
            _ = try await execute(ScriptBody.call(entry: entry), entry: entry,
                                  request: RuntimeRequest.deliver(id: nil, responses: responses, wait: false), timeout: scriptTimeout,
                                  confidential: true)
        }
        let lines = (reply.json["console"]?.arrayValue ?? []).compactMap { line -> ConsoleMessage? in
            guard let level = line["level"]?.stringValue, let message = line["message"]?.stringValue else { return nil }
            return ConsoleMessage(level: ConsoleMessage.Level(rawValue: level), message: message, depth: line["depth"]?.intValue ?? 0)
        }
        return ScriptResult(context: result.context, value: result.value, console: result.console + lines, error: result.error,
                            dialogs: result.dialogs, userscript: activity)
    }
}

extension PageSession {
    /// The runtime installed in the document a window shows, kept while the session follows
    /// another window, and handed back with ``resumeRuntime(_:)`` on return, so that the work
    /// that document's userscripts queued meanwhile (a value written from a timer) is served by
    /// the runtime that holds it rather than lost to a new installation. It carries the
    /// userscript runs the session knows of, so that a session that takes over a runtime another
    /// one installed (a background tab's) can also run their menu commands.
    public struct InstalledRuntime: Sendable, Equatable {
        let entry: RuntimeEntry
        let userScriptRuns: [(id: String, run: GMScriptRun)]
        /// The runs served in this runtime (``SessionState/Values/runtimeRuns``).
        let runtimeRunIDs: [String]

        /// The same runtime: the same entry in the same document.
        public static func == (lhs: InstalledRuntime, rhs: InstalledRuntime) -> Bool {
            lhs.entry == rhs.entry
        }
    }

    /// The runtime in the current document, if one was installed there.
    public var installedRuntime: InstalledRuntime? {
        state.update { state in
            state.entry.map { entry in
                let here = state.runtimeRuns.flatMap { $0.entry == entry ? $0.ids : nil } ?? []
                return InstalledRuntime(entry: entry, userScriptRuns: state.userScriptRuns, runtimeRunIDs: here)
            }
        }
    }

    /// Uses `runtime` (from ``installedRuntime`` of the window the session is back on, or of
    /// another session on the same document) for the current document; `nil` installs afresh
    /// when needed.
    ///
    /// ```swift
    /// let left = page.installedRuntime
    /// try await page.session.switchToWindow(popup)
    /// // …
    /// try await page.session.switchToWindow(original)
    /// page.resumeRuntime(left)
    /// ```
    public func resumeRuntime(_ runtime: InstalledRuntime?) {
        state.update { state in
            state.entry = runtime?.entry
            state.runtimeRuns = runtime.map { ($0.entry, $0.runtimeRunIDs) }
            let known = Set(state.userScriptRuns.map(\.id))
            state.userScriptRuns += (runtime?.userScriptRuns ?? []).filter { !known.contains($0.id) }
            if state.userScriptRuns.count > Self.rememberedUserScriptRuns {
                state.userScriptRuns.removeFirst(state.userScriptRuns.count - Self.rememberedUserScriptRuns)
            }
        }
        transport.documentChanged()
    }
}

/// Why an isolated world could not be had.
struct NoIsolatedWorld: Error, CustomStringConvertible {
    let description: String
}

extension PageSession {
    /// The session on an isolated world of the page's current document (made once per document),
    /// or why there is none: only Chromium's DevTools make one, for a page of the window the
    /// session is on.
    func isolatedWorld() async -> Result<PageSession, NoIsolatedWorld> {
        guard route == nil, !isDriverFrame else {
            return .failure(NoIsolatedWorld(description: "PageScript makes isolated worlds only in a page's top document, not in its frames or background tabs"))
        }
        guard let direct, transport.sendsDevToolsCommands else {
            return .failure(NoIsolatedWorld(description: "this engine's WebDriver offers no isolated world (Chromium's DevTools do)"))
        }
        let loader = await direct.documentLoader()
        if let loader, let kept = state.read(\.isolatedWorld), kept.loader == loader { return .success(kept.page) }
        guard let made = await direct.isolatedWorld() else {
            return .failure(NoIsolatedWorld(description: "Chromium's DevTools did not make an isolated world for this page"))
        }
        let page = PageSession(isolatedWorldOf: self, route: made.route)
        state.update { $0.isolatedWorld = (made.loader, page) }
        return .success(page)
    }
}
