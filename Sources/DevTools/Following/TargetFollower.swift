import Foundation
import NIOConcurrencyHelpers
import SystemSupport

/// Follows every tab and window of a browser, including those opened later, and prepares each
/// one before its first script runs.
///
/// The follower turns on target discovery and auto-attach with `waitForDebuggerOnStart` on the
/// browser session. Chromium then attaches every existing target and every new one (a tab the
/// user opens, a `window.open` popup, a window, a `Target.createTarget`), pausing each new
/// target before its first document runs any script. For each attached target of the followed
/// types the follower asks `prepare` for the commands that set it up
/// (`Page.addScriptToEvaluateOnNewDocument`, bindings, `Page.enable`…), sends them, and then
/// `Runtime.runIfWaitingForDebugger`, all pipelined in one go: the browser handles them in
/// order, so what they add is in place for the target's first document. (Waiting for each reply
/// before resuming would hang: Chromium answers `Page.addScriptToEvaluateOnNewDocument` for a
/// paused `noopener` window only once the window runs.) Targets of other types (the browser's
/// UI, service workers) are resumed and detached.
///
/// A popup whose first document has the opener's origin keeps the window of its initial
/// `about:blank` (HTML's rule): Chromium then runs the scripts once, as that window is set up,
/// with `location` and `document` still the `about:blank` ones. What they put on `window` is in
/// place before the popup's own scripts; what they put on `document` is not.
///
/// When the followed types include `iframe`, each followed target's out-of-process frames are
/// followed too (auto-attach in the target's own session), and prepared the same way.
///
/// ```swift
/// let connection = try await DevToolsConnection.connect(to: try DevToolsEndpoint(parsing: "127.0.0.1:9222"))
/// let follower = try await TargetFollower.start(on: connection, types: ["page", "iframe"]) { target in
///     let navigations = target.session.events(["Page.frameNavigated", "Page.navigatedWithinDocument"])
///     Task { for await event in navigations { /* match scripts to FrameNavigation(event)?.url */ } }
///     return [
///         .enablePage, .enableRuntime,
///         .addBinding("pagescriptSend", executionContextName: "pagescript"),
///         .addScriptToEvaluateOnNewDocument(documentStartScripts, worldName: "pagescript"),
///     ]
/// }
/// for await change in follower.changes() { print(change) }
/// ```
public final class TargetFollower: Sendable {
    /// What happened to the followed targets.
    public enum Change: Sendable, Equatable {
        /// A target was attached and prepared (and, if it was paused, resumed).
        case attached(FollowedTarget)
        /// A target was attached, but a preparation command failed; it was resumed anyway, so a
        /// failing preparation never leaves a tab frozen.
        case preparationFailed(FollowedTarget, reason: String)
        /// A followed target's URL or title changed.
        case changed(FollowedTarget)
        /// A followed target closed or was detached.
        case detached(FollowedTarget)
    }

    /// The commands that set up a target before it runs. Called once per attached target; it
    /// may subscribe to the target's events (``DevToolsSession/events(_:)``), which then miss
    /// nothing of its first document.
    public typealias Preparation = @Sendable (FollowedTarget) -> [DevToolsCommand]

    private struct Waiter {
        let targetID: String
        let continuation: CheckedContinuation<FollowedTarget?, Never>
    }

    private struct State {
        var targets: [String: FollowedTarget] = [:]
        var preparing: [String: FollowedTarget] = [:]
        var waiters: [Int: Waiter] = [:]
        var subscribers: [Int: AsyncStream<Change>.Continuation] = [:]
        var nextToken = 1
        var stopped = false
        var loop: Task<Void, Never>?
    }

    /// The connection the follower works on.
    public let connection: DevToolsConnection
    /// The target types followed (`page`, `iframe`, …).
    public let types: Set<String>
    private let prepare: Preparation
    private let followsChildren: Bool
    private let state = NIOLockedValueBox(State())

    private init(connection: DevToolsConnection, types: Set<String>, prepare: @escaping Preparation) {
        self.connection = connection
        self.types = types
        self.prepare = prepare
        followsChildren = types.contains("iframe")
    }

    /// Starts following the browser on `connection`.
    ///
    /// Returns once auto-attach is on. Targets that already existed are attached by then and
    /// being prepared (``FollowedTarget/startedPaused`` is `false` for them: their current
    /// document loaded before; reload them, or use `runImmediately`, to give it the scripts).
    ///
    /// - Parameters:
    ///   - connection: A connection to the browser (not to one page).
    ///   - types: The target types to follow: `page` for tabs, windows and popups; add `iframe`
    ///     for out-of-process frames.
    ///   - prepare: Called once per attached target, while a new target waits, for the commands
    ///     that set it up.
    /// - Throws: The connection's errors, if auto-attach cannot be turned on.
    public static func start(
        on connection: DevToolsConnection, types: Set<String> = ["page"], prepare: @escaping Preparation
    ) async throws(DevToolsError) -> TargetFollower {
        let follower = TargetFollower(connection: connection, types: types, prepare: prepare)
        let events = connection.events(["Target.attachedToTarget", "Target.detachedFromTarget", "Target.targetInfoChanged"])
        let loop = Task { await follower.follow(events) }
        follower.state.withLockedValue { $0.loop = loop }
        do {
            try await connection.browser.setDiscoverTargets(true)
            try await connection.browser.setAutoAttach(true, waitForDebuggerOnStart: true)
        } catch {
            await follower.stop()
            throw error
        }
        return follower
    }

    /// The followed targets that are attached and prepared now.
    public var targets: [FollowedTarget] {
        state.withLockedValue { Array($0.targets.values) }
    }

    /// What happens to the followed targets from now on, until ``stop()`` or the end of the
    /// connection. Each call makes a new stream; nothing earlier is replayed (see ``targets``).
    public func changes() -> AsyncStream<Change> {
        let (stream, continuation) = AsyncStream.makeStream(of: Change.self, bufferingPolicy: .unbounded)
        let token = state.withLockedValue { state -> Int? in
            guard !state.stopped else { return nil }
            let token = state.nextToken
            state.nextToken += 1
            state.subscribers[token] = continuation
            return token
        }
        guard let token else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLockedValue { $0.subscribers.removeValue(forKey: token) }
        }
        return stream
    }

    /// Waits until the target `targetID` has been attached and prepared, and returns it; `nil`
    /// after `timeout` seconds or when following ends.
    public func waitForTarget(_ targetID: String, timeout: Double = 10) async -> FollowedTarget? {
        let token = state.withLockedValue { state in
            defer { state.nextToken += 1 }
            return state.nextToken
        }
        let timer = NIOLockedValueBox<Task<Void, Never>?>(nil)
        let target = await withCheckedContinuation { (continuation: CheckedContinuation<FollowedTarget?, Never>) in
            let ready = state.withLockedValue { state -> FollowedTarget?? in
                if let target = state.targets.values.first(where: { $0.targetID == targetID }) { return .some(target) }
                if state.stopped { return .some(nil) }
                state.waiters[token] = Waiter(targetID: targetID, continuation: continuation)
                return nil
            }
            if let ready {
                continuation.resume(returning: ready)
                return
            }
            // Started only once the waiter is registered, so that it cannot fire before.
            timer.withLockedValue {
                $0 = Task { [weak self] in
                    try? await Task.sleep(nanoseconds: UInt64(timeout * 1_000_000_000))
                    self?.resumeWaiter(token, with: nil)
                }
            }
        }
        timer.withLockedValue { $0?.cancel() }
        return target
    }

    /// Opens a tab (or window) at `url` with the follower's preparation in place for its first
    /// document: the tab is opened at `about:blank`, prepared, and then navigated.
    ///
    /// - Throws: ``DevToolsError/timedOut(method:seconds:)`` when the new tab was not prepared
    ///   within `timeout` seconds (for example when `page` is not a followed type), and the
    ///   connection's errors.
    public func openTab(url: String, newWindow: Bool = false, timeout: Double = 10) async throws(DevToolsError) -> FollowedTarget {
        let targetID = try await connection.browser.createTarget(url: "about:blank", newWindow: newWindow)
        guard let target = await waitForTarget(targetID, timeout: timeout) else {
            throw .timedOut(method: "Target.createTarget (preparing the new tab)", seconds: timeout)
        }
        try await target.session.navigate(to: url)
        return target
    }

    /// Stops following: auto-attach and discovery go off, ``changes()`` streams end. Sessions
    /// already attached stay until they detach or the connection closes. Idempotent.
    public func stop() async {
        let (loop, subscribers, waiters, wasStopped) = state.withLockedValue { state in
            defer {
                state.stopped = true
                state.subscribers = [:]
                state.waiters = [:]
                state.loop = nil
            }
            return (state.loop, Array(state.subscribers.values), Array(state.waiters.values), state.stopped)
        }
        loop?.cancel()
        for waiter in waiters { waiter.continuation.resume(returning: nil) }
        for subscriber in subscribers { subscriber.finish() }
        guard !wasStopped, connection.closure == nil else { return }
        _ = try? await connection.browser.setAutoAttach(false, waitForDebuggerOnStart: false)
        _ = try? await connection.browser.setDiscoverTargets(false)
    }

    private func follow(_ events: AsyncStream<DevToolsEvent>) async {
        for await event in events {
            switch event.method {
            case "Target.attachedToTarget":
                if let attached = AttachedTarget(event) { attach(attached) }
            case "Target.detachedFromTarget":
                if let sessionID = event.parameters["sessionId"]?.stringValue { detach(sessionID) }
            case "Target.targetInfoChanged":
                if let info = event.parameters["targetInfo"].flatMap(TargetInfo.init) { update(info) }
            default:
                break
            }
        }
        await stop()
    }

    private func attach(_ attached: AttachedTarget) {
        let target = FollowedTarget(
            info: attached.info, session: connection.session(attached.sessionID),
            startedPaused: attached.waitingForDebugger, parentSessionID: attached.parentSessionID)
        guard types.contains(attached.info.type) else {
            let parent = attached.parentSessionID.map(connection.session) ?? connection.browser
            Task {
                if attached.waitingForDebugger { _ = try? await target.session.runIfWaitingForDebugger() }
                _ = try? await parent.detach(target.session)
            }
            return
        }
        state.withLockedValue { $0.preparing[attached.sessionID] = target }
        let preparation = prepare(target)
        var commands = preparation
        if followsChildren { commands.insert(.setAutoAttach(true, waitForDebuggerOnStart: true), at: 0) }
        if attached.waitingForDebugger { commands.append(.runIfWaitingForDebugger) }
        Task {
            let replies = await target.session.send(pipelined: commands)
            var failure: String?
            for (command, reply) in zip(commands, replies) {
                if case let .failure(error) = reply, failure == nil { failure = "\(command.method): \(error)" }
            }
            let offset = followsChildren ? 1 : 0
            let preparationReplies = replies[offset..<(offset + preparation.count)].map { (try? $0.get()) ?? .null }
            finishPreparing(attached.sessionID, replies: preparationReplies, failure: failure)
        }
    }

    private func finishPreparing(_ sessionID: String, replies: [JSONValue], failure: String?) {
        let (prepared, subscribers, waiters) = state.withLockedValue { state -> (FollowedTarget?, [AsyncStream<Change>.Continuation], [Waiter]) in
            guard let preparing = state.preparing.removeValue(forKey: sessionID), !state.stopped else { return (nil, [], []) }
            let prepared = preparing.with(preparationReplies: replies)
            state.targets[sessionID] = prepared
            let waiting = state.waiters.filter { $0.value.targetID == prepared.targetID }
            for token in waiting.keys { state.waiters.removeValue(forKey: token) }
            return (prepared, Array(state.subscribers.values), Array(waiting.values))
        }
        guard let prepared else { return }
        let change: Change = failure.map { .preparationFailed(prepared, reason: $0) } ?? .attached(prepared)
        for subscriber in subscribers { subscriber.yield(change) }
        for waiter in waiters { waiter.continuation.resume(returning: prepared) }
    }

    private func detach(_ sessionID: String) {
        let (gone, subscribers) = state.withLockedValue { state -> (FollowedTarget?, [AsyncStream<Change>.Continuation]) in
            if state.preparing.removeValue(forKey: sessionID) != nil { return (nil, []) }
            return (state.targets.removeValue(forKey: sessionID), Array(state.subscribers.values))
        }
        guard let gone else { return }
        for subscriber in subscribers { subscriber.yield(.detached(gone)) }
    }

    private func update(_ info: TargetInfo) {
        let (changed, subscribers) = state.withLockedValue { state -> ([FollowedTarget], [AsyncStream<Change>.Continuation]) in
            for (sessionID, target) in state.preparing where target.targetID == info.targetID {
                state.preparing[sessionID] = target.with(info: info)
            }
            var changed: [FollowedTarget] = []
            for (sessionID, target) in state.targets where target.targetID == info.targetID && target.info != info {
                let updated = target.with(info: info)
                state.targets[sessionID] = updated
                changed.append(updated)
            }
            return (changed, Array(state.subscribers.values))
        }
        for target in changed {
            for subscriber in subscribers { subscriber.yield(.changed(target)) }
        }
    }

    private func resumeWaiter(_ token: Int, with target: FollowedTarget?) {
        let waiter = state.withLockedValue { $0.waiters.removeValue(forKey: token) }
        waiter?.continuation.resume(returning: target)
    }
}
