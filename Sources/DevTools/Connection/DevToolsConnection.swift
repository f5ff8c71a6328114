import Foundation
import NIOCore
import SystemSupport
import WebSocket

/// A connection to a Chromium browser's DevTools endpoint, speaking the Chrome DevTools Protocol
/// with flat sessions.
///
/// One WebSocket carries the browser's own commands and those of every target attached with
/// `flatten: true`: a command for a target carries that target's `sessionId`
/// (``DevToolsSession``). Replies are matched to commands by `id`; events go to every stream
/// from ``events(_:scope:)`` whose filter they pass, in the order the browser sent them.
///
/// Each command has a timeout, and every pending command fails with
/// ``DevToolsError/connectionClosed(_:)`` the moment the connection ends: a browser that
/// crashes mid-command is reported at once.
///
/// ```swift
/// let browser = try await DevToolsConnection.connect(to: try DevToolsEndpoint(parsing: "127.0.0.1:9222"))
/// let tab = try await browser.browser.createTarget(url: "about:blank")
/// let page = try await browser.browser.attach(toTarget: tab)
/// let loaded = page.events(["Page.loadEventFired"])
/// try await page.enablePage()
/// try await page.navigate(to: "https://example.com/")
/// for await _ in loaded { break }
/// print(try await page.evaluate("document.title"))
/// await browser.close()
/// ```
public final class DevToolsConnection: Sendable {
    /// The browser's WebSocket URL this connection uses.
    public let webSocketURL: URL
    /// The browser's version, when the connection was found through `GET /json/version`.
    public let browserVersion: DevToolsDiscovery.BrowserVersion?
    /// The timeout of commands that do not name their own, in seconds.
    public let defaultTimeout: Double

    private let socket: WebSocketClient
    private let router: DevToolsMessageRouter

    private init(socket: WebSocketClient, router: DevToolsMessageRouter, browserVersion: DevToolsDiscovery.BrowserVersion?, defaultTimeout: Double) {
        self.socket = socket
        self.router = router
        self.webSocketURL = socket.url
        self.browserVersion = browserVersion
        self.defaultTimeout = defaultTimeout
    }

    /// Connects to a browser's DevTools endpoint.
    ///
    /// For ``DevToolsEndpoint/http(host:port:)`` the browser's WebSocket URL comes from
    /// `GET /json/version`; a ``DevToolsEndpoint/webSocket(_:)`` URL is used as it is.
    ///
    /// - Parameters:
    ///   - endpoint: Where the browser listens.
    ///   - defaultTimeout: The timeout of commands that do not name their own, in seconds.
    ///   - configuration: The WebSocket's message size limit and connect timeout (256 MB and
    ///     10 s by default).
    /// - Throws: ``DevToolsError/unreachable(endpoint:reason:)`` with the reason.
    public static func connect(
        to endpoint: DevToolsEndpoint,
        defaultTimeout: Double = 30,
        configuration: WebSocketClient.Configuration = WebSocketClient.Configuration()
    ) async throws(DevToolsError) -> DevToolsConnection {
        let url: URL
        var version: DevToolsDiscovery.BrowserVersion?
        switch endpoint {
        case let .http(host, port):
            let found = try await DevToolsDiscovery.version(host: host, port: port, timeout: configuration.connectTimeout)
            version = found
            url = found.webSocketDebuggerURL
        case let .webSocket(webSocketURL):
            url = webSocketURL
        }
        let router = DevToolsMessageRouter()
        do {
            let socket = try await WebSocketClient.connect(
                to: url, configuration: configuration,
                onMessage: { router.receive($0) },
                onClose: { router.connectionEnded($0) })
            return DevToolsConnection(socket: socket, router: router, browserVersion: version, defaultTimeout: defaultTimeout)
        } catch {
            throw .unreachable(endpoint: url.absoluteString, reason: error.description)
        }
    }

    /// The browser's own session: commands without a `sessionId` (the `Target`, `Browser` and
    /// `SystemInfo` domains).
    public var browser: DevToolsSession {
        DevToolsSession(connection: self, id: nil)
    }

    /// The flat session `id` (from `Target.attachToTarget` or `Target.attachedToTarget`).
    public func session(_ id: String) -> DevToolsSession {
        DevToolsSession(connection: self, id: id)
    }

    /// How the connection ended, or `nil` while it is open.
    public var closure: WebSocketClosure? {
        router.closure
    }

    /// Sends one command and returns its `result`.
    ///
    /// - Parameters:
    ///   - method: The command, e.g. `Runtime.evaluate`.
    ///   - parameters: Its `params` object.
    ///   - sessionID: The flat session the command is for; `nil` for the browser.
    ///   - timeout: Seconds to wait for the reply; ``defaultTimeout`` when `nil`.
    /// - Throws: ``DevToolsError/commandFailed(method:code:message:data:)`` for the browser's
    ///   protocol errors, ``DevToolsError/timedOut(method:seconds:)``,
    ///   ``DevToolsError/connectionClosed(_:)``, ``DevToolsError/cancelled(method:)``.
    public func send(
        _ method: String, _ parameters: JSONValue = .object([]), sessionID: String? = nil, timeout: Double? = nil
    ) async throws(DevToolsError) -> JSONValue {
        try await send(method, serializedParameters: parameters.serialized, sessionID: sessionID, timeout: timeout)
    }

    /// Sends one command whose `params` are already JSON text, and returns its `result`.
    ///
    /// For a hot path that sends the same large parameters again and again (a 5 KB function
    /// for `Runtime.callFunctionOn`): serialise the constant part once, splice the rest in.
    /// The text must be one JSON object; it is sent as it is.
    public func send(
        _ method: String, serializedParameters: String, sessionID: String? = nil, timeout: Double? = nil
    ) async throws(DevToolsError) -> JSONValue {
        let id = router.reserveCommandID()
        let router = self.router
        let reply = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<DevToolsMessageRouter.Reply, Never>) in
                dispatch(id: id, method: method, serializedParameters: serializedParameters, sessionID: sessionID,
                         timeout: timeout) { continuation.resume(returning: $0) }
                if Task.isCancelled {
                    router.complete(id: id) { .failure(.cancelled(method: $0)) }
                }
            }
        } onCancel: {
            router.complete(id: id) { .failure(.cancelled(method: $0)) }
        }
        return try reply.get()
    }

    /// Sends `commands` one after another without waiting for any reply in between, then waits
    /// for all the replies: the `result` of each command, or its error, in order.
    ///
    /// The browser handles a session's commands in the order they arrive, so a later command
    /// still runs after the earlier ones. This is how to prepare a target that auto-attach
    /// paused: Chromium answers some commands for a paused new window only once it runs, so
    /// waiting for each reply before sending `Runtime.runIfWaitingForDebugger` can wait forever.
    public func send(
        pipelined commands: [DevToolsCommand], sessionID: String? = nil, timeout: Double? = nil
    ) async -> [Result<JSONValue, DevToolsError>] {
        let replies = commands.map { command in
            let promise = socket.eventLoop.makePromise(of: JSONValue.self)
            dispatch(id: router.reserveCommandID(), method: command.method, serializedParameters: command.parameters.serialized,
                     sessionID: sessionID, timeout: timeout) { promise.completeWith($0.mapError { $0 as any Error }) }
            return promise.futureResult
        }
        var results: [Result<JSONValue, DevToolsError>] = []
        for (command, reply) in zip(commands, replies) {
            do {
                results.append(.success(try await reply.get()))
            } catch {
                results.append(.failure(error as? DevToolsError ?? .malformedReply(method: command.method, reason: "\(error)")))
            }
        }
        return results
    }

    /// Registers command `id` with a timeout and writes it; `completion` gets the reply (or the
    /// failure) exactly once.
    private func dispatch(
        id: Int, method: String, serializedParameters: String, sessionID: String?, timeout: Double?,
        completion: @escaping @Sendable (DevToolsMessageRouter.Reply) -> Void
    ) {
        var message = "{\"id\":\(id),\"method\":" + JSONValue.string(method).serialized + ",\"params\":" + serializedParameters
        if let sessionID { message += ",\"sessionId\":" + JSONValue.string(sessionID).serialized }
        message += "}"
        let seconds = timeout ?? defaultTimeout
        let router = self.router
        let deadline = socket.eventLoop.scheduleTask(in: .nanoseconds(Int64(seconds * 1_000_000_000))) {
            router.complete(id: id) { .failure(.timedOut(method: $0, seconds: seconds)) }
        }
        if let closure = router.register(id: id, method: method, timeout: deadline, completion: completion) {
            deadline.cancel()
            completion(.failure(.connectionClosed(closure)))
            return
        }
        do {
            try socket.send(text: message)
        } catch {
            let closure: WebSocketClosure = if case let .closed(closure) = error { closure } else { .connectionLost(reason: error.description) }
            router.complete(id: id) { _ in .failure(.connectionClosed(closure)) }
        }
    }

    /// The events that pass a filter, in the order the browser sent them.
    ///
    /// The stream buffers without limit and ends when the connection ends (for a
    /// ``DevToolsEventScope/session(_:)`` scope, also when that session detaches). Subscribe
    /// before sending the command that causes the events: nothing sent earlier is replayed.
    ///
    /// - Parameters:
    ///   - methods: The event names to receive, e.g. `["Page.frameNavigated"]`; empty for all.
    ///   - scope: Whose events: every session's, the browser's own, or one session's.
    public func events(_ methods: Set<String> = [], scope: DevToolsEventScope = .all) -> AsyncStream<DevToolsEvent> {
        router.subscribe(methods: methods, scope: scope)
    }

    /// Sends a WebSocket ping and waits for the pong: whether the browser is alive and reading.
    public func ping(timeout: Double = 5) async throws(DevToolsError) {
        do {
            try await socket.ping(timeout: timeout)
        } catch .closed(let closure) {
            throw .connectionClosed(closure)
        } catch {
            throw .timedOut(method: "ping", seconds: timeout)
        }
    }

    /// Closes the connection (a WebSocket close handshake). Pending commands fail with
    /// ``DevToolsError/connectionClosed(_:)``; event streams end. Idempotent.
    ///
    /// A browser attached to (`--attach`) keeps running: closing the connection detaches every
    /// session, which drops what they added (scripts to evaluate on new documents, bindings).
    public func close() async {
        await socket.close()
    }
}
