import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import WebDriver
import WebSocket

/// A loopback TCP relay between WebKitWebDriver and MiniBrowser's automation server that
/// acknowledges every segment it receives at once.
///
/// WebKitWebDriver talks to the browser it drives over a loopback TCP connection (the remote
/// inspector protocol). Neither end turns off Nagle's algorithm, and the receiving end delays its
/// acknowledgements (Linux waits up to 40 ms), so whenever one end writes twice in a row (the
/// browser sends an event and then the reply to a command, as after every navigation) the second
/// write waits for the acknowledgement of the first: every navigation through WebKitWebDriver
/// took far longer than the page's load. Put between the two, the relay receives
/// each end's data on a socket with `TCP_QUICKACK` set again after every read, so the sender's
/// next write goes out at once, and writes with `TCP_NODELAY`.
///
/// Given a ``WebKitAutomationChannel``, the relay reads both directions as whole frames and lets
/// PageScript send commands of its own on the driver's connection (``WebKitBrowser`` always does,
/// for its scripts' sake); without one it passes bytes on as they come.
///
/// ```swift
/// let relay = try await InspectorRelay.start(targetPort: 9333, connectTimeout: 20)
/// // start WebKitWebDriver with --target=127.0.0.1:\(relay.port)
/// await relay.stop()
/// ```
public final class InspectorRelay: Sendable {
    /// The loopback port the relay listens on.
    public let port: UInt16
    /// PageScript's own way to the browser's automation session, when the relay was given one.
    public let automation: WebKitAutomationChannel?
    private let server: any Channel
    private let connections: NIOLockedValueBox<[ObjectIdentifier: any Channel]>

    private init(port: UInt16, automation: WebKitAutomationChannel?, server: any Channel,
                 connections: NIOLockedValueBox<[ObjectIdentifier: any Channel]>) {
        self.port = port
        self.automation = automation
        self.server = server
        self.connections = connections
    }

    /// Listens on a free loopback port and relays each connection to `127.0.0.1:targetPort`.
    ///
    /// - Parameters:
    ///   - targetPort: The port of the automation server (`WEBKIT_INSPECTOR_SERVER`).
    ///   - connectTimeout: How long, in seconds, an accepted connection waits for the target to
    ///     listen (a browser that is still starting) before it is closed.
    ///   - targetIsAlive: Whether the target can still come (the browser process runs); once it
    ///     says no, a waiting connection is closed at once instead of at the timeout.
    ///   - automation: The channel PageScript sends its own commands through, attached to each
    ///     connection the relay makes; `nil` to relay bytes only.
    /// - Throws: ``EngineError/failedToStart(engine:reason:)`` when no port can be listened on.
    public static func start(
        targetPort: UInt16, connectTimeout: Double, targetIsAlive: @escaping @Sendable () -> Bool = { true },
        automation: WebKitAutomationChannel? = nil
    ) async throws(EngineError) -> InspectorRelay {
        let connections = NIOLockedValueBox<[ObjectIdentifier: any Channel]>([:])
        let group = MultiThreadedEventLoopGroup.singleton
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(ChannelOptions.tcpOption(.tcp_nodelay), value: 1)
            // Nothing is read from the driver until the browser's end is connected.
            .childChannelOption(ChannelOptions.autoRead, value: false)
            .childChannelInitializer { accepted in
                remember(accepted, in: connections)
                let deadline = NIODeadline.now() + .milliseconds(Int64(connectTimeout * 1000))
                return connectToTarget(port: targetPort, on: accepted.eventLoop, deadline: deadline, isAlive: targetIsAlive).flatMapThrowing { target in
                    // Both channels are on the accepted channel's event loop.
                    remember(target, in: connections)
                    let (driverSide, browserSide) = RelayHandler.pair(automation: automation)
                    try accepted.pipeline.syncOperations.addHandler(ImmediateAcknowledger())
                    try target.pipeline.syncOperations.addHandler(ImmediateAcknowledger())
                    if let automation {
                        try accepted.pipeline.syncOperations.addHandler(ByteToMessageHandler(AutomationFrameDecoder()))
                        try target.pipeline.syncOperations.addHandler(ByteToMessageHandler(AutomationFrameDecoder()))
                        automation.browserConnected(target)
                        target.closeFuture.whenComplete { _ in automation.browserDisconnected(target) }
                    }
                    try accepted.pipeline.syncOperations.addHandler(driverSide)
                    try target.pipeline.syncOperations.addHandler(browserSide)
                    try accepted.syncOptions?.setOption(ChannelOptions.autoRead, value: true)
                    try target.syncOptions?.setOption(ChannelOptions.autoRead, value: true)
                }.flatMapErrorThrowing { error in
                    accepted.close(promise: nil)
                    throw error
                }
            }
        do {
            let server = try await bootstrap.bind(host: "127.0.0.1", port: 0).get()
            guard let port = server.localAddress?.port, let listening = UInt16(exactly: port) else {
                try? await server.close()
                throw EngineError.failedToStart(engine: .webkit, reason: "the automation relay has no port")
            }
            return InspectorRelay(port: listening, automation: automation, server: server, connections: connections)
        } catch let error as EngineError {
            throw error
        } catch {
            throw .failedToStart(engine: .webkit, reason: "the automation relay could not listen on loopback: \(error)")
        }
    }

    /// Stops listening and closes every relayed connection. Idempotent.
    public func stop() async {
        try? await server.close()
        let open = connections.withLockedValue { channels in
            defer { channels.removeAll() }
            return Array(channels.values)
        }
        for channel in open {
            try? await channel.close()
        }
    }

    private static func remember(_ channel: any Channel, in connections: NIOLockedValueBox<[ObjectIdentifier: any Channel]>) {
        let key = ObjectIdentifier(channel)
        connections.withLockedValue { $0[key] = channel }
        channel.closeFuture.whenComplete { _ in
            _ = connections.withLockedValue { $0.removeValue(forKey: key) }
        }
    }

    /// Connects to the browser's automation server, again every 2 ms while it refuses (the
    /// browser is starting) and `isAlive` says it may still come, until `deadline`.
    private static func connectToTarget(
        port: UInt16, on loop: any EventLoop, deadline: NIODeadline, isAlive: @escaping @Sendable () -> Bool
    ) -> EventLoopFuture<any Channel> {
        ClientBootstrap(group: loop)
            .channelOption(ChannelOptions.tcpOption(.tcp_nodelay), value: 1)
            .channelOption(ChannelOptions.autoRead, value: false)
            .connectTimeout(.seconds(2))
            .connect(host: "127.0.0.1", port: Int(port))
            .flatMapError { error in
                guard NIODeadline.now() + .milliseconds(2) < deadline, isAlive() else { return loop.makeFailedFuture(error) }
                return loop.scheduleTask(in: .milliseconds(2)) {}.futureResult.flatMap {
                    connectToTarget(port: port, on: loop, deadline: deadline, isAlive: isAlive)
                }
            }
    }
}

/// One end of a relayed connection: what it reads is written to its partner, and reads pause
/// while the partner cannot take more.
private final class RelayHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// What this end does with what it reads besides passing it on.
    private enum Role {
        /// Bytes as they come.
        case bytes
        /// Whole frames from the driver, shown to the channel on their way.
        case driverFrames(WebKitAutomationChannel)
        /// Whole frames from the browser; those the channel takes (its replies) stop here.
        case browserFrames(WebKitAutomationChannel)
    }

    private let role: Role
    private var partner: RelayHandler?
    private var context: ChannelHandlerContext?
    private var readPending = false

    private init(role: Role) {
        self.role = role
    }

    /// Two handlers that relay to each other: the driver's end and the browser's.
    static func pair(automation: WebKitAutomationChannel?) -> (RelayHandler, RelayHandler) {
        let first = RelayHandler(role: automation.map { .driverFrames($0) } ?? .bytes)
        let second = RelayHandler(role: automation.map { .browserFrames($0) } ?? .bytes)
        first.partner = second
        second.partner = first
        return (first, second)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
        partner = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch role {
        case .bytes:
            break
        case let .driverFrames(automation):
            automation.driverSent(unwrapInboundIn(data))
        case let .browserFrames(automation):
            if automation.browserSent(unwrapInboundIn(data)) { return }
        }
        partner?.context?.write(data, promise: nil)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        partner?.context?.flush()
    }

    func channelInactive(context: ChannelHandlerContext) {
        partner?.context?.close(promise: nil)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        // This side can take more: let the partner read again if it was waiting.
        if context.channel.isWritable { partner?.resumeReading() }
        context.fireChannelWritabilityChanged()
    }

    func read(context: ChannelHandlerContext) {
        if let partnerChannel = partner?.context?.channel, !partnerChannel.isWritable {
            readPending = true
        } else {
            context.read()
        }
    }

    private func resumeReading() {
        guard readPending, let context else { return }
        readPending = false
        context.read()
    }
}
