import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

/// A WebSocket client (RFC 6455) over plain TCP, on SwiftNIO.
///
/// Messages arrive whole: fragments are joined before `onMessage` sees them, pings are answered,
/// and a close frame from the peer is answered before the socket closes. `onMessage` and
/// `onClose` run on the connection's event loop, one at a time and in order; keep them short.
/// `onClose` runs exactly once, as soon as the socket has ended, whatever the reason, so a peer
/// that dies (a crashed browser) is noticed at once rather than at the next timeout.
///
/// Only `ws://` is supported: the DevTools endpoints it exists for are on loopback.
///
/// ```swift
/// let client = try await WebSocketClient.connect(
///     to: URL(string: "ws://127.0.0.1:9222/devtools/browser/…")!,
///     onMessage: { message in print(message.text) },
///     onClose: { closure in print("ended: \(closure)") })
/// try client.send(text: #"{"id":1,"method":"Browser.getVersion"}"#)
/// await client.close()
/// ```
public final class WebSocketClient: Sendable {
    /// Limits and timeouts of one connection.
    public struct Configuration: Sendable {
        /// The largest message accepted, in bytes; a larger one closes the connection with
        /// status 1009 (``WebSocketClosure/messageTooLarge(limit:)``). At most `UInt32.max`.
        public var maximumMessageSize: Int
        /// How long the TCP connection and the upgrade handshake may take, in seconds.
        public var connectTimeout: Double
        /// How long ``WebSocketClient/close(code:reason:)`` waits for the peer's close frame
        /// before closing the socket anyway, in seconds.
        public var closeTimeout: Double

        /// Creates a configuration; the defaults accept 256 MB messages and allow 10 s to
        /// connect and 2 s to close.
        public init(maximumMessageSize: Int = 256 * 1024 * 1024, connectTimeout: Double = 10, closeTimeout: Double = 2) {
            self.maximumMessageSize = min(maximumMessageSize, Int(UInt32.max))
            self.connectTimeout = connectTimeout
            self.closeTimeout = closeTimeout
        }
    }

    /// The URL the client connected to.
    public let url: URL
    let channel: any Channel
    private let state: WebSocketConnectionState
    private let configuration: Configuration

    private init(url: URL, channel: any Channel, state: WebSocketConnectionState, configuration: Configuration) {
        self.url = url
        self.channel = channel
        self.state = state
        self.configuration = configuration
    }

    /// The event loop the connection's callbacks run on, for timers that must not race them.
    public var eventLoop: any EventLoop { channel.eventLoop }

    /// How the connection ended, or `nil` while it is open.
    public var closure: WebSocketClosure? {
        state.closure
    }

    /// Connects to `url` and completes the upgrade handshake.
    ///
    /// - Parameters:
    ///   - url: A `ws://host:port/path` URL.
    ///   - configuration: Size limit and timeouts.
    ///   - onMessage: Called for every complete message, on the event loop.
    ///   - onClose: Called once when the connection has ended, on the event loop.
    /// - Throws: ``WebSocketError/invalidURL(_:)``, ``WebSocketError/unreachable(url:reason:)``,
    ///   ``WebSocketError/handshakeRefused(url:status:body:)`` or
    ///   ``WebSocketError/timedOut(operation:seconds:)``.
    public static func connect(
        to url: URL,
        configuration: Configuration = Configuration(),
        onMessage: @escaping @Sendable (WebSocketMessage) -> Void,
        onClose: @escaping @Sendable (WebSocketClosure) -> Void
    ) async throws(WebSocketError) -> WebSocketClient {
        guard url.scheme?.lowercased() == "ws", let host = url.host, !host.isEmpty else {
            throw .invalidURL(url.absoluteString)
        }
        let port = url.port ?? 80
        let path = url.path.isEmpty ? "/" : url.path
        let target = url.query.map { path + "?" + $0 } ?? path
        let hostHeader = (host.contains(":") ? "[\(host)]" : host) + ":\(port)"
        let state = WebSocketConnectionState(
            maximumMessageSize: configuration.maximumMessageSize, onMessage: onMessage, onClose: onClose)

        let negotiation: Negotiation
        do {
            negotiation = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connectTimeout(.milliseconds(Int64(configuration.connectTimeout * 1000)))
                .channelOption(.socketOption(.tcp_nodelay), value: 1)
                .connect(host: host, port: port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(ImmediateAcknowledger(), position: .first)
                        return try Self.configureUpgrade(
                            channel: channel, target: target, hostHeader: hostHeader, state: state,
                            maximumFrameSize: configuration.maximumMessageSize)
                    }
                }
        } catch {
            throw .unreachable(url: url.absoluteString, reason: "\(error)")
        }

        let channel = negotiation.channel
        let handshakeTimedOut = NIOLockedValueBox(false)
        let deadline = channel.eventLoop.scheduleTask(in: .milliseconds(Int64(configuration.connectTimeout * 1000))) {
            handshakeTimedOut.withLockedValue { $0 = true }
            channel.close(promise: nil)
        }
        let outcome: UpgradeOutcome
        do {
            outcome = try await negotiation.outcome.get()
            deadline.cancel()
        } catch {
            deadline.cancel()
            channel.close(promise: nil)
            if handshakeTimedOut.withLockedValue({ $0 }) {
                throw .timedOut(operation: "the WebSocket handshake with \(url.absoluteString)", seconds: configuration.connectTimeout)
            }
            throw .unreachable(url: url.absoluteString, reason: "the upgrade handshake failed: \(error)")
        }
        switch outcome {
        case .upgraded:
            return WebSocketClient(url: url, channel: channel, state: state, configuration: configuration)
        case let .refused(response):
            let (status, body) = (try? await response.get()) ?? (0, "")
            channel.close(promise: nil)
            throw .handshakeRefused(url: url.absoluteString, status: status, body: body)
        }
    }

    /// Sends `text` as one text message.
    ///
    /// The frame is queued at once; a failed write ends the connection, which `onClose` reports.
    /// - Throws: ``WebSocketError/closed(_:)`` once the connection has ended or is closing.
    public func send(text: String) throws(WebSocketError) {
        var buffer = channel.allocator.buffer(capacity: text.utf8.count)
        buffer.writeString(text)
        try send(buffer, opcode: .text)
    }

    /// Sends `bytes` as one binary message.
    /// - Throws: ``WebSocketError/closed(_:)`` once the connection has ended or is closing.
    public func send(bytes: [UInt8]) throws(WebSocketError) {
        try send(channel.allocator.buffer(bytes: bytes), opcode: .binary)
    }

    private func send(_ buffer: ByteBuffer, opcode: WebSocketOpcode) throws(WebSocketError) {
        if let closure = closureOrClosing() { throw .closed(closure) }
        channel.writeAndFlush(WebSocketFrame(fin: true, opcode: opcode, maskKey: .random(), data: buffer), promise: nil)
    }

    /// Sends a ping and waits for the peer's pong: proof that the peer is alive and reading.
    ///
    /// - Parameter timeout: How long to wait for the pong, in seconds.
    /// - Throws: ``WebSocketError/timedOut(operation:seconds:)`` or ``WebSocketError/closed(_:)``.
    public func ping(timeout: Double = 5) async throws(WebSocketError) {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Void, WebSocketError>, Never>) in
            let registered = state.values.withLockedValue { values -> Result<UInt64, WebSocketError> in
                if let closure = values.closure ?? (values.closeFrameSent ? .closedLocally : nil) {
                    return .failure(.closed(closure))
                }
                let number = values.nextPingNumber
                values.nextPingNumber += 1
                values.pingWaiters[number] = continuation
                return .success(number)
            }
            switch registered {
            case let .failure(error):
                continuation.resume(returning: .failure(error))
            case let .success(number):
                channel.eventLoop.scheduleTask(in: .milliseconds(Int64(timeout * 1000))) { [state] in
                    let waiter = state.values.withLockedValue { $0.pingWaiters.removeValue(forKey: number) }
                    waiter?.resume(returning: .failure(.timedOut(operation: "ping", seconds: timeout)))
                }
                var payload = channel.allocator.buffer(capacity: 8)
                payload.writeInteger(number)
                channel.writeAndFlush(WebSocketFrame(fin: true, opcode: .ping, maskKey: .random(), data: payload), promise: nil)
            }
        }
        try result.get()
    }

    /// Closes the connection with a close handshake: sends a close frame with `code`, waits up to
    /// the configured close timeout for the peer's, then closes the socket. Idempotent; returns
    /// once the socket is closed and `onClose` has run.
    ///
    /// - Parameters:
    ///   - code: The status code to send; 1000 is a normal closure.
    ///   - reason: A short reason (at most 123 bytes of UTF-8 are sent).
    public func close(code: UInt16 = 1000, reason: String = "") async {
        let sendFrame = state.values.withLockedValue { values -> Bool in
            guard values.closure == nil else { return false }
            values.closure = .closedLocally
            defer { values.closeFrameSent = true }
            return !values.closeFrameSent
        }
        if sendFrame {
            var payload = channel.allocator.buffer(capacity: 2 + reason.utf8.count)
            payload.writeInteger(code)
            payload.writeString(String(decoding: reason.utf8.prefix(123), as: UTF8.self))
            channel.writeAndFlush(WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: payload), promise: nil)
            let channel = self.channel
            let forcedClose = channel.eventLoop.scheduleTask(in: .milliseconds(Int64(configuration.closeTimeout * 1000))) {
                channel.close(promise: nil)
            }
            try? await channel.closeFuture.get()
            forcedClose.cancel()
        } else {
            channel.close(promise: nil)
            try? await channel.closeFuture.get()
        }
    }

    /// The closure to report to a sender: the end of the connection, or a close in progress.
    private func closureOrClosing() -> WebSocketClosure? {
        state.values.withLockedValue { values in
            values.closure ?? values.failure
                ?? values.peerClose.map { .closedByPeer(code: $0.code, reason: $0.reason) }
                ?? (values.closeFrameSent ? .closedLocally : nil)
        }
    }

    private static func configureUpgrade(
        channel: any Channel, target: String, hostHeader: String, state: WebSocketConnectionState, maximumFrameSize: Int
    ) throws -> Negotiation {
        // Protocol errors are handled by WebSocketFrameHandler, which records why before closing.
        let upgrader = NIOTypedWebSocketClientUpgrader<UpgradeOutcome>(
            maxFrameSize: maximumFrameSize,
            enableAutomaticErrorHandling: false,
            upgradePipelineHandler: { channel, _ in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(WebSocketFrameHandler(state: state))
                    return UpgradeOutcome.upgraded
                }
            })
        var headers = HTTPHeaders()
        headers.add(name: "Host", value: hostHeader)
        // An empty body with a length, so that the encoder does not switch to chunked encoding.
        headers.add(name: "Content-Length", value: "0")
        let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: target, headers: headers)
        let configuration = NIOTypedHTTPClientUpgradeConfiguration<UpgradeOutcome>(
            upgradeRequestHead: head,
            upgraders: [upgrader],
            notUpgradingCompletionHandler: { channel in
                channel.eventLoop.makeCompletedFuture {
                    let reader = RefusedUpgradeReader(eventLoop: channel.eventLoop)
                    try channel.pipeline.syncOperations.addHandler(reader)
                    return UpgradeOutcome.refused(reader.response.futureResult)
                }
            })
        let outcome = try channel.pipeline.syncOperations.configureUpgradableHTTPClientPipeline(
            configuration: .init(upgradeConfiguration: configuration))
        return Negotiation(channel: channel, outcome: outcome)
    }
}

/// A connected channel and the future result of its upgrade handshake.
private struct Negotiation: Sendable {
    let channel: any Channel
    let outcome: EventLoopFuture<UpgradeOutcome>
}

/// How the server answered the upgrade request.
private enum UpgradeOutcome: Sendable {
    case upgraded
    case refused(EventLoopFuture<(status: Int, body: String)>)
}
