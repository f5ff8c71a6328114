import Engines
import Foundation
import PageRuntime
import SystemSupport
import WebDriver

/// Runs one script over every URL of a list, on ``BatchConfiguration/jobs`` sessions at once.
///
/// Each worker keeps one session and takes entries one after another: navigate, run, record,
/// next; so a page costs a navigation and a round trip, not a browser start. A session that dies
/// under a page (a crashed tab, a dropped grid session) is replaced and the page tried again, up
/// to ``BatchConfiguration/retries`` times; a page that hangs is cut at the timeout and its
/// session replaced; a full grid is waited for with ``Backoff`` and costs the page nothing.
///
/// ``requestStop(signal:)`` (for SIGINT and SIGTERM) stops new pages at once, lets running ones
/// finish for ``BatchConfiguration/stopGrace`` seconds, abandons the rest (they have no record,
/// so `--resume` runs them), closes every session and stops every process the source started.
///
/// ```swift
/// let plan = try BatchPlan.prepare(inputPath: "urls.txt", outputPath: "out.jsonl", resume: true)
/// let runner = BatchRunner(configuration: configuration, source: LocalChromiumSource(),
///                          script: .code("document.title"), plan: plan)
/// let summary = await runner.run { progress in print(ProgressLine.render(progress)) }
/// ```
public final class BatchRunner: Sendable {
    /// How the batch runs.
    public let configuration: BatchConfiguration

    private let source: any SessionSource
    private let script: VisitScript
    private let feed: EntryFeed
    private let sink: RecordSink
    private let log: ResultLog
    private let total: Int?
    private let alreadyDone: Int
    private let state = BatchState()
    private let startedAt: Double
    private let backoff = Backoff()

    /// The most sessions lost under one page for reasons that do not count against it (the
    /// endpoint stopped answering) before they do count: a page that kills its driver every
    /// time must not be retried for ever.
    static let uncountedLossLimit = 5
    /// Failed attempts to open a session, before any was opened, after which the batch stops.
    static let failuresBeforeGivingUp = 3

    /// Prepares a batch; nothing runs until ``run(progress:)``.
    ///
    /// - Parameters:
    ///   - configuration: How to run.
    ///   - source: Where sessions come from.
    ///   - script: What runs on every page.
    ///   - plan: The input, the output and what an earlier run recorded.
    public init(configuration: BatchConfiguration, source: any SessionSource, script: BatchScript, plan: sending BatchPlan) {
        self.configuration = configuration
        self.source = source
        self.script = VisitScript(script, connecting: configuration.connecting, downloads: configuration.downloads)
        startedAt = MonotonicClock.now()
        let ledger = plan.ledger
        log = plan.log
        total = plan.total
        alreadyDone = ledger.recordCount
        let table = plan.outputFormat == .csv
            ? RecordTable(columns: ledger.tableColumns, escapingForTerminal: log.isTerminal) : nil
        sink = RecordSink(log: log, ledger: ledger, ordered: configuration.ordered,
                          capacity: configuration.reorderCapacity, startedAt: startedAt, table: table)
        feed = EntryFeed(reader: plan.reader, ledger: ledger, turns: HostTurns(limit: configuration.perHost, delay: configuration.delayPerHost))
    }

    /// Asks the batch to stop (from a signal handler's queue, or anywhere): no new page starts,
    /// running pages get ``BatchConfiguration/stopGrace`` seconds, then everything is closed.
    public func requestStop(signal: Int32?) {
        stop(.stopped(signal: signal))
    }

    /// Asks the batch to stop for termination signal `signal`. The batch closes everything
    /// within seconds; should it still be running after `patience` seconds, every process it
    /// started is killed and `end` is called (to exit) between two records, so that no line of
    /// the output is torn.
    public func stop(forSignal signal: Int32, patience: Double = 15, otherwise end: @escaping @Sendable () -> Void) {
        requestStop(signal: signal)
        DispatchQueue.global().asyncAfter(deadline: .now() + patience) { [self] in
            withOutputQuiet {
                CommandSupervision.killEverything()
                end()
            }
        }
    }

    /// Runs `body` while no record is being written, for a last-resort exit that must not tear
    /// a line of the output.
    public func withOutputQuiet<T>(_ body: () -> T) -> T {
        log.withNoWriteInProgress(body)
    }

    /// Runs the batch to its end and returns how it ended. `progress` is called a few times a
    /// second and once at the end, from a background task.
    public func run(progress: @escaping @Sendable (BatchProgress) -> Void) async -> BatchSummary {
        do {
            try await source.prepare()
        } catch {
            stop(.noSession(reason: error.description))
        }
        let workers = Task { [self] in
            guard !state.isStopping else { return }
            await withTaskGroup(of: Void.self) { group in
                for slot in 0..<max(1, configuration.jobs) {
                    group.addTask { await self.work(slot: slot) }
                }
            }
        }
        state.setWorkers(workers)
        let ticker = Task { [self] in await tick(progress: progress) }
        await workers.value
        ticker.cancel()
        await ticker.value
        await closeEverything()
        let final = await snapshot()
        progress(final)
        let ending: BatchEnding
        if let failure = await sink.failure {
            ending = .failed(.output(failure))
        } else {
            ending = state.stopEnding ?? .completed
        }
        return BatchSummary(ending: ending, progress: final)
    }

    // MARK: Workers

    /// One worker: a slot with at most one session, taking pages until there are none left.
    ///
    /// A worker gets its session before it takes a page, so that no page waits on a worker that
    /// waits for a session; a page whose session dies under it goes back to the feed, for the
    /// next worker with a session.
    private func work(slot: Int) async {
        var current: OpenedSession?
        // One page session per browser session, so that what is set once per session (the
        // driver's script timeout, Chromium's CSP bypass) is set once.
        var openedPage: PageSession?
        // The session's name as a tab, for the objects its pages keep with `GM_saveTab`.
        var tab = ""
        var sessionsOpened = 0
        // Forgets the session's page and its tab (whose `GM_saveTab` objects go with it).
        func dropSession() {
            script.host?.tabClosed(tab)
            current = nil
            openedPage = nil
        }
        while !state.isStopping {
            if current == nil {
                if let (entry, reason) = await feed.nextInvalid() {
                    await sink.waitForRoom(before: entry.index)
                    await submitInvalid(entry, reason: reason)
                    continue
                }
                guard await feed.hasWork(), let opened = await acquireSession(slot: slot) else { return }
                current = opened
                openedPage = PageSession(session: opened.session, scriptTimeout: configuration.timeout, dialogs: configuration.dialogs,
                                         bypassesContentSecurityPolicy: configuration.bypassesContentSecurityPolicy,
                                         driverScriptTimeout: configuration.timeout, waitsUntil: configuration.waitUntil)
                // A page that did not load in time costs its session (``PageVisit``).
                openedPage?.endsAfterLoadTimeouts()
                sessionsOpened += 1
                tab = "batch-\(slot)-\(sessionsOpened)"
                openedPage?.identify(asTab: tab)
            }
            guard let session = current, let page = openedPage else { return }
            var attempt: PageAttempts
            switch await feed.next() {
            case let .entry(entry):
                await sink.waitForRoom(before: entry.index)
                guard !state.isStopping else { return }
                switch PageVisit.address(of: entry) {
                case let .page(address):
                    attempt = PageAttempts(entry: entry, address: address, startedAt: Date(), attempts: 0, uncountedLosses: 0)
                case let .invalid(reason):
                    await submitInvalid(entry, reason: reason)
                    continue
                }
            case let .retry(retry):
                attempt = retry
            case .end:
                return
            case let .failed(failure):
                stop(.failed(failure))
                return
            }
            attempt.attempts += 1
            state.attemptStarts(slot: slot)
            var outcome = await PageVisit.visit(address: attempt.address, script: script, input: attempt.entry.scriptInput, on: page,
                                                timeout: configuration.timeout, loadTimeout: configuration.loadTimeout)
            await feed.ended(attempt.address)
            let memoryKill = state.attemptEnds(slot: slot)
            // A page given up on while stopping has no record: `--resume` runs it again.
            if state.isAbandoning || Task.isCancelled { return }
            if let memoryKill { outcome = .sessionLost(reason: memoryKill, charged: true) }
            switch outcome {
            case let .finished(status, pageFields, httpStatus, reusable):
                if !reusable {
                    await retire(slot: slot)
                    dropSession()
                }
                if status.isWorthRetrying(httpStatus: httpStatus), attempt.attempts <= configuration.retries {
                    // After a backoff, so that a server that failed or was slow gets a moment.
                    state.retrying()
                    let delay = backoff.delay(afterFailures: attempt.attempts, unitRandom: Double.random(in: 0...1))
                    try? await Task.sleep(nanoseconds: UInt64(delay * 1e9))
                    await feed.putBack(attempt)
                    continue
                }
                await submit(record(for: attempt, status: status, page: pageFields, httpStatus: httpStatus, engine: session.engine))
            case let .sessionLost(reason, charged):
                await retire(slot: slot)
                dropSession()
                if !charged, attempt.uncountedLosses < Self.uncountedLossLimit {
                    attempt.uncountedLosses += 1
                    attempt.attempts -= 1
                }
                if attempt.attempts <= configuration.retries {
                    state.retrying()
                    await feed.putBack(attempt)
                    continue
                }
                let message = attempt.attempts == 1 ? "the browser tab or session died: \(reason)"
                    : "the browser tab or session died on all \(attempt.attempts) attempts, the last time: \(reason)"
                let failed = BatchRecord.failedPage(status: .crashed, message: message, url: attempt.address, title: nil, libraryMode: script.isLibrary)
                await submit(record(for: attempt, status: .crashed, page: failed, httpStatus: nil, engine: session.engine))
            case let .fatal(reason):
                stop(.failed(.pageScript(reason)))
                return
            }
        }
    }

    /// Records an entry that is not a URL PageScript opens.
    private func submitInvalid(_ entry: BatchEntry, reason: String) async {
        let failed = BatchRecord.failedPage(status: .invalidURL, message: reason, url: nil, title: nil, libraryMode: script.isLibrary)
        await submit(BatchRecord(index: entry.index, input: entry.text, fields: entry.fields, status: .invalidURL, page: failed, httpStatus: nil,
                                 startedAt: Date(), duration: 0, attempts: 0, engine: source.engineLabel))
    }

    private func record(for page: PageAttempts, status: RecordStatus, page fields: PageReport, httpStatus: Int?, engine: String) -> BatchRecord {
        BatchRecord(index: page.entry.index, input: page.entry.text, fields: page.entry.fields, requested: page.address, status: status, page: fields, httpStatus: httpStatus,
                    startedAt: page.startedAt, duration: Date().timeIntervalSince(page.startedAt), attempts: page.attempts, engine: engine)
    }

    /// A session for `slot`, waiting with backoff while none can be had; `nil` when the batch
    /// stops (or has to, because no session can be had) or nothing is left to run.
    ///
    /// The batch gives up only when no worker has had a session for ``BatchConfiguration/sessionWait``
    /// seconds: a worker that waits while others work (a grid smaller than `--jobs`) waits on.
    private func acquireSession(slot: Int) async -> OpenedSession? {
        var failures = 0
        defer { state.stopsWaiting(slot: slot) }
        while !state.isStopping {
            do throws(SessionSourceError) {
                let opened = try await source.openSession(
                    slot: slot, scriptTimeout: configuration.timeout, pageLoadTimeout: configuration.loadTimeout ?? configuration.timeout)
                state.opened(opened)
                if let viewport = configuration.viewport {
                    do throws(WebDriverError) {
                        try await opened.session.fit(viewport, timeout: 10)
                    } catch {
                        // A page drawn at another size than asked would be recorded wrongly.
                        await retire(slot: slot)
                        throw .failed(reason: "the window could not be fitted to --viewport \(viewport): \(error)")
                    }
                }
                if state.isAbandoning {
                    await retire(slot: slot)
                    return nil
                }
                return opened
            } catch {
                if Task.isCancelled { return nil }
                let reason = error.description
                switch error {
                case .fatal:
                    stop(state.hasOpenedASession ? .sessionsLost(reason: reason) : .noSession(reason: reason))
                    return nil
                case .failed, .full:
                    // A full grid is waited for however long it takes; a failure to start is
                    // not, until a first session shows that sessions can be had at all.
                    let countsAsFailure: Bool
                    if case .failed = error { countsAsFailure = true } else { countsAsFailure = false }
                    let failedBeforeAny = state.waits(slot: slot, reason: reason, countsAsFailure: countsAsFailure)
                    if failedBeforeAny >= Self.failuresBeforeGivingUp {
                        stop(.noSession(reason: reason))
                        return nil
                    }
                }
                if state.secondsWithoutAnySession(now: MonotonicClock.now()) >= configuration.sessionWait {
                    stop(state.hasOpenedASession ? .sessionsLost(reason: reason) : .noSession(reason: reason))
                    return nil
                }
                failures += 1
                let delay = backoff.delay(afterFailures: failures, unitRandom: Double.random(in: 0...1))
                try? await Task.sleep(nanoseconds: UInt64(delay * 1e9))
                // Others may have run what was left meanwhile.
                guard await feed.hasWork() else { return nil }
            }
        }
        return nil
    }

    /// Ends the session of `slot` and stops what was started only for it.
    private func retire(slot: Int) async {
        guard let session = state.closing(slot: slot) else { return }
        await source.retire(session)
    }

    private func submit(_ record: BatchRecord) async {
        if !(await sink.submit(record)) {
            stop(.failed(.output(await sink.failure ?? .unwritable(name: log.name, reason: "unknown"))))
        }
    }

    // MARK: Stopping and closing

    private func stop(_ ending: BatchEnding) {
        guard state.requestStop(ending) else { return }
        let grace = configuration.stopGrace
        Task { [self] in
            await feed.close()
            await sink.release()
            // A batch that cannot go on (no session, no output) gives up its pages at once.
            if case .stopped = ending {
                try? await Task.sleep(nanoseconds: UInt64(grace * 1e9))
            }
            state.abandon()
        }
    }

    /// Deletes every session still open (all at once, each with a short timeout), then stops
    /// every process the source started, closes the connections the userscripts'
    /// `GM_xmlhttpRequest` opened, and closes the output.
    private func closeEverything() async {
        let sessions = state.takeAllSessions()
        let source = source
        await withTaskGroup(of: Void.self) { group in
            for session in sessions { group.addTask { await source.retire(session) } }
        }
        await source.shutdown()
        await script.host?.shutdown()
        // A CSV table's records that waited for its header; a failure is the sink's, read below.
        await sink.finish()
        log.close()
    }

    // MARK: Progress and the memory limit

    private func tick(progress: @Sendable (BatchProgress) -> Void) async {
        var ticks = 0
        while !Task.isCancelled {
            try? await Task.sleep(nanoseconds: 250_000_000)
            if Task.isCancelled { break }
            ticks += 1
            await sink.synchronizeIfDue()
            if ticks % 2 == 0, let limit = configuration.memoryLimit { await enforceMemoryLimit(limit) }
            progress(await snapshot())
        }
    }

    private func snapshot() async -> BatchProgress {
        let now = MonotonicClock.now()
        let written = await sink.progress(now: now)
        var progress = BatchProgress()
        progress.done = written.written
        progress.statusCounts = written.statusCounts
        progress.pagesPerSecond = written.rate
        progress.alreadyDone = alreadyDone
        progress.total = total
        progress.elapsed = now - startedAt
        state.fill(&progress)
        return progress
    }

    /// Stops any local browser process above `limit` bytes; its page is then counted as crashed.
    private func enforceMemoryLimit(_ limit: UInt64) async {
        for process in await source.browserProcesses() where process.residentBytes > limit {
            kill(process.processID, SIGKILL)
            let used = process.residentBytes / (1024 * 1024)
            state.memoryKill(slot: process.slot, explanation:
                "the page's browser process used \(used) MB, more than the limit of \(limit / (1024 * 1024)) MB, and was stopped")
        }
    }
}
