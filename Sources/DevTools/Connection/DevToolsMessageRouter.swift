import NIOConcurrencyHelpers
import NIOCore
import SystemSupport
import WebSocket

/// Routes what arrives on a DevTools connection: replies to the commands waiting for them (by
/// `id`), events to the subscribers whose filter they pass, and the end of the connection to
/// everyone.
///
/// Continuations are resumed and streams fed outside the lock: finishing a stream runs its
/// termination handler, which takes the lock again.
final class DevToolsMessageRouter: Sendable {
    typealias Reply = Result<JSONValue, DevToolsError>

    private struct PendingCommand {
        let method: String
        let completion: @Sendable (Reply) -> Void
        let timeout: Scheduled<Void>?
    }

    private struct Subscriber {
        let methods: Set<String>
        let scope: DevToolsEventScope
        let continuation: AsyncStream<DevToolsEvent>.Continuation
    }

    private struct State {
        var nextCommandID = 1
        var pending: [Int: PendingCommand] = [:]
        var nextSubscriberID = 1
        var subscribers: [Int: Subscriber] = [:]
        var closure: WebSocketClosure?
    }

    private let state = NIOLockedValueBox(State())

    /// The next command ID.
    func reserveCommandID() -> Int {
        state.withLockedValue { state in
            defer { state.nextCommandID += 1 }
            return state.nextCommandID
        }
    }

    /// Registers a command waiting for its reply; `completion` gets the reply exactly once.
    /// Returns how the connection ended instead, if it has; the caller then completes it itself.
    func register(
        id: Int, method: String, timeout: Scheduled<Void>?, completion: @escaping @Sendable (Reply) -> Void
    ) -> WebSocketClosure? {
        state.withLockedValue { state in
            if let closure = state.closure { return closure }
            state.pending[id] = PendingCommand(method: method, completion: completion, timeout: timeout)
            return nil
        }
    }

    /// Resumes command `id` with `reply`, if it still waits.
    func complete(id: Int, with reply: (String) -> Reply) {
        guard let command = state.withLockedValue({ $0.pending.removeValue(forKey: id) }) else { return }
        command.timeout?.cancel()
        command.completion(reply(command.method))
    }

    /// A stream of the events that pass the filter, until the connection (or, for a session
    /// scope, the session) ends.
    func subscribe(methods: Set<String>, scope: DevToolsEventScope) -> AsyncStream<DevToolsEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: DevToolsEvent.self, bufferingPolicy: .unbounded)
        let id = state.withLockedValue { state -> Int? in
            guard state.closure == nil else { return nil }
            let id = state.nextSubscriberID
            state.nextSubscriberID += 1
            state.subscribers[id] = Subscriber(methods: methods, scope: scope, continuation: continuation)
            return id
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLockedValue { $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    /// Handles one message from the browser.
    func receive(_ message: WebSocketMessage) {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: message.bytes)
        } catch {
            // A reply that is not JSON still names its command at the start
            // (`{"id":N,...`): fail that command rather than let it run into its timeout.
            if let id = Self.leadingCommandID(message.bytes) {
                complete(id: id) { .failure(.malformedReply(method: $0, reason: error.description)) }
            }
            return
        }
        if let id = value["id"]?.intValue {
            complete(id: id) { method in
                if let error = value["error"] {
                    var data = error["data"]?.stringValue
                    if data == nil, let other = error["data"], !other.isNull { data = other.serialized }
                    return .failure(.commandFailed(
                        method: method, code: error["code"]?.intValue ?? 0,
                        message: error["message"]?.stringValue ?? "", data: data))
                }
                return .success(value["result"] ?? .object([]))
            }
        } else if let method = value["method"]?.stringValue {
            dispatch(DevToolsEvent(
                method: method, parameters: value["params"] ?? .object([]), sessionID: value["sessionId"]?.stringValue))
        }
    }

    private func dispatch(_ event: DevToolsEvent) {
        let detachedSession = event.method == "Target.detachedFromTarget" ? event.parameters["sessionId"]?.stringValue : nil
        let (receivers, ended) = state.withLockedValue { state in
            var receivers: [AsyncStream<DevToolsEvent>.Continuation] = []
            var ended: [AsyncStream<DevToolsEvent>.Continuation] = []
            for (id, subscriber) in state.subscribers {
                if subscriber.scope.includes(event.sessionID),
                   subscriber.methods.isEmpty || subscriber.methods.contains(event.method) {
                    receivers.append(subscriber.continuation)
                }
                if let detachedSession, subscriber.scope == .session(detachedSession) {
                    ended.append(subscriber.continuation)
                    state.subscribers.removeValue(forKey: id)
                }
            }
            return (receivers, ended)
        }
        for receiver in receivers { receiver.yield(event) }
        for subscriber in ended { subscriber.finish() }
    }

    /// Fails every waiting command and finishes every stream: the connection has ended.
    func connectionEnded(_ closure: WebSocketClosure) {
        let (pending, subscribers) = state.withLockedValue { state in
            state.closure = state.closure ?? closure
            defer {
                state.pending = [:]
                state.subscribers = [:]
            }
            return (Array(state.pending.values), Array(state.subscribers.values))
        }
        for command in pending {
            command.timeout?.cancel()
            command.completion(.failure(.connectionClosed(closure)))
        }
        for subscriber in subscribers { subscriber.continuation.finish() }
    }

    /// How the connection ended, or `nil` while it is open.
    var closure: WebSocketClosure? {
        state.withLockedValue { $0.closure }
    }

    /// The `N` of a message starting `{"id":N`, Chromium's order for replies.
    static func leadingCommandID(_ bytes: [UInt8]) -> Int? {
        let prefix = Array(#"{"id":"#.utf8)
        guard bytes.count > prefix.count, Array(bytes[0..<prefix.count]) == prefix else { return nil }
        let digits = bytes[prefix.count...].prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        return Int(String(decoding: digits, as: UTF8.self))
    }
}
