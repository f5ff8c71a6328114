import Foundation
import NIOConcurrencyHelpers
import NIOCore
import SystemSupport
import WebSocket

/// A WebDriver BiDi connection: the WebSocket a session opened with `webSocketUrl: true` offers
/// (geckodriver's, chromedriver's, a Selenium Grid node's), for the commands classic WebDriver
/// has no word for, such as `script.addPreloadScript`.
///
/// Replies are matched to commands by `id`; every pending command fails the moment the
/// connection ends, so a browser that dies mid-command is reported at once, not at a timeout.
/// Events (once subscribed to with `session.subscribe`) go to the handlers added with
/// ``onEvent(_:)``, in the order the browser sent them, on the connection's event loop.
///
/// ```swift
/// let bidi = try await BiDiConnection.connect(to: url)
/// let added = try await bidi.send("script.addPreloadScript", parameters: ["functionDeclaration": "() => {}"])
/// await bidi.close()
/// ```
public final class BiDiConnection: Sendable {
    /// The session's `webSocketUrl`.
    public let url: URL
    private let socket: WebSocketClient
    private let commands: Commands

    private init(url: URL, socket: WebSocketClient, commands: Commands) {
        self.url = url
        self.socket = socket
        self.commands = commands
    }

    /// Connects to a session's `webSocketUrl`.
    ///
    /// - Throws: ``BiDiError/unreachable(url:reason:)`` with the reason.
    public static func connect(to url: URL, timeout: Double = 10) async throws(BiDiError) -> BiDiConnection {
        let commands = Commands()
        do {
            let socket = try await WebSocketClient.connect(
                to: url, configuration: WebSocketClient.Configuration(connectTimeout: timeout),
                onMessage: { commands.received($0.text) },
                onClose: { commands.end(because: "\($0)") })
            return BiDiConnection(url: url, socket: socket, commands: commands)
        } catch {
            throw .unreachable(url: url.absoluteString, reason: error.description)
        }
    }

    /// Sends `method` with `parameters` and returns its `result`.
    ///
    /// - Throws: ``BiDiError/commandFailed(method:error:message:)``,
    ///   ``BiDiError/timedOut(method:seconds:)`` or ``BiDiError/connectionClosed(method:reason:)``.
    public func send(_ method: String, parameters: JSONValue = [:], timeout: Double = 10) async throws(BiDiError) -> JSONValue {
        try await send(method, serializedParameters: parameters.serialized, timeout: timeout)
    }

    /// Sends `method` with parameters already serialised as a JSON object (for a large text
    /// escaped once, not on every call) and returns its `result`.
    public func send(_ method: String, serializedParameters: String, timeout: Double = 10) async throws(BiDiError) -> JSONValue {
        try await reply(to: method, serializedParameters: serializedParameters, timeout: timeout).get()
    }

    /// Sends `method` as ``send(_:serializedParameters:timeout:)`` does, and returns its `result`
    /// or the error that command would throw, for a caller that waits for other things too.
    public func reply(to method: String, parameters: JSONValue = [:], timeout: Double = 10) async -> Result<JSONValue, BiDiError> {
        await reply(to: method, serializedParameters: parameters.serialized, timeout: timeout)
    }

    /// ``reply(to:parameters:timeout:)`` with parameters already serialised.
    public func reply(to method: String, serializedParameters: String, timeout: Double = 10) async -> Result<JSONValue, BiDiError> {
        let commands = self.commands
        let socket = self.socket
        return await withCheckedContinuation { (continuation: CheckedContinuation<Result<JSONValue, BiDiError>, Never>) in
            let deadline = socket.eventLoop.scheduleTask(in: .nanoseconds(Int64(timeout * 1_000_000_000))) {}
            let id = commands.register(method: method) { continuation.resume(returning: $0) }
            deadline.futureResult.whenSuccess { commands.complete(id: id, with: .failure(.timedOut(method: method, seconds: timeout))) }
            commands.setDeadline(deadline, for: id)
            let message = "{\"id\":\(id),\"method\":" + JSONValue.string(method).serialized + ",\"params\":" + serializedParameters + "}"
            do {
                try socket.send(text: message)
            } catch {
                commands.complete(id: id, with: .failure(.connectionClosed(method: method, reason: "\(error)")))
            }
        }
    }

    /// Calls `handler` with each event's method and parameters from now on; keep it short.
    public func onEvent(_ handler: @escaping @Sendable (_ method: String, _ parameters: JSONValue) -> Void) {
        commands.addEventHandler(handler)
    }

    /// Whether the connection has ended, closed by either side: a command sent now fails at once
    /// with ``BiDiError/connectionClosed(method:reason:)``.
    public var hasEnded: Bool {
        commands.hasEnded
    }

    /// Closes the connection; pending commands fail with ``BiDiError/connectionClosed(method:reason:)``.
    public func close() async {
        await socket.close()
        commands.end(because: "closed by PageScript")
    }

    /// The commands waiting for replies, by `id`.
    private final class Commands: Sendable {
        typealias Completion = @Sendable (Result<JSONValue, BiDiError>) -> Void
        typealias EventHandler = @Sendable (String, JSONValue) -> Void

        private struct Waiting {
            let method: String
            let completion: Completion
            var deadline: Scheduled<Void>?
        }

        private struct State {
            var nextID = 1
            var waiting: [Int: Waiting] = [:]
            var endedBecause: String?
            var eventHandlers: [EventHandler] = []
        }

        private let state = NIOLockedValueBox(State())

        /// A new command's `id`; a connection that has ended completes it at once.
        func register(method: String, completion: @escaping Completion) -> Int {
            let (id, ended) = state.withLockedValue { state -> (Int, String?) in
                defer { state.nextID += 1 }
                if state.endedBecause == nil { state.waiting[state.nextID] = Waiting(method: method, completion: completion) }
                return (state.nextID, state.endedBecause)
            }
            if let ended { completion(.failure(.connectionClosed(method: method, reason: ended))) }
            return id
        }

        func setDeadline(_ deadline: Scheduled<Void>, for id: Int) {
            let kept = state.withLockedValue { state -> Bool in
                guard state.waiting[id] != nil else { return false }
                state.waiting[id]?.deadline = deadline
                return true
            }
            if !kept { deadline.cancel() }
        }

        /// Completes command `id` once; later completions (a reply after its timeout) are dropped.
        func complete(id: Int, with result: Result<JSONValue, BiDiError>) {
            guard let waiting = state.withLockedValue({ $0.waiting.removeValue(forKey: id) }) else { return }
            waiting.deadline?.cancel()
            waiting.completion(result)
        }

        func addEventHandler(_ handler: @escaping EventHandler) {
            state.withLockedValue { $0.eventHandlers.append(handler) }
        }

        /// A message from the browser: a command's reply, or an event for the handlers.
        func received(_ text: String) {
            guard let message = try? JSONValue(parsing: text) else { return }
            if message["type"]?.stringValue == "event", let method = message["method"]?.stringValue {
                let parameters = message["params"] ?? .null
                for handler in state.withLockedValue({ $0.eventHandlers }) { handler(method, parameters) }
                return
            }
            guard let id = message["id"]?.intValue else { return }
            let method = state.withLockedValue { $0.waiting[id]?.method } ?? ""
            if message["type"]?.stringValue == "success" {
                complete(id: id, with: .success(message["result"] ?? [:]))
            } else {
                complete(id: id, with: .failure(.commandFailed(method: method, error: message["error"]?.stringValue ?? "unknown error",
                                                               message: message["message"]?.stringValue ?? "")))
            }
        }

        var hasEnded: Bool {
            state.withLockedValue { $0.endedBecause != nil }
        }

        /// The connection ended: every pending command fails.
        func end(because reason: String) {
            let waiting = state.withLockedValue { state -> [Waiting] in
                if state.endedBecause == nil { state.endedBecause = reason }
                defer { state.waiting.removeAll() }
                return Array(state.waiting.values)
            }
            for command in waiting {
                command.deadline?.cancel()
                command.completion(.failure(.connectionClosed(method: command.method, reason: reason)))
            }
        }
    }
}
