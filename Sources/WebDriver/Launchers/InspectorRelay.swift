import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A loopback TCP relay between WebKitWebDriver and MiniBrowser's automation server that
/// acknowledges every segment it receives at once.
///
/// WebKitWebDriver talks to the browser it drives over a loopback TCP connection (the remote
/// inspector protocol). Neither end turns off Nagle's algorithm, and the receiving end delays its
/// acknowledgements (Linux waits up to 40 ms), so whenever one end writes twice in a row (the
/// browser sends an event and then the reply to a command, as after every navigation) the second
/// write waits for the acknowledgement of the first: every navigation through WebKitWebDriver
/// took about 50 ms, of which the page's load took 4. Put between the two, the relay receives
/// each end's data on a socket with `TCP_QUICKACK` set again after every read, so the sender's
/// next write goes out at once, and writes with `TCP_NODELAY`.
///
/// ``WebKitBrowser`` uses it only where PageScript may not set `TCP_NODELAY` on the two
/// processes' own sockets (``SystemSupport/ProcessSockets``), which does the same without the
/// extra hop (about 0.1 ms a command).
///
/// ```swift
/// let relay = try await InspectorRelay.start(targetPort: 9333, connectTimeout: 20)
/// // start WebKitWebDriver with --target=127.0.0.1:\(relay.port)
/// await relay.stop()
/// ```
public final class InspectorRelay: Sendable {
    /// The loopback port the relay listens on.
    public let port: UInt16
    private let server: any Channel
    private let connections: NIOLockedValueBox<[ObjectIdentifier: any Channel]>

    private init(port: UInt16, server: any Channel, connections: NIOLockedValueBox<[ObjectIdentifier: any Channel]>) {
        self.port = port
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
    /// - Throws: ``EngineError/failedToStart(engine:reason:)`` when no port can be listened on.
    public static func start(
        targetPort: UInt16, connectTimeout: Double, targetIsAlive: @escaping @Sendable () -> Bool = { true }
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
                    let (driverSide, browserSide) = RelayHandler.pair()
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
            return InspectorRelay(port: listening, server: server, connections: connections)
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

    /// Connects to the browser's automation server, again every 20 ms while it refuses (the
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
                guard NIODeadline.now() + .milliseconds(20) < deadline, isAlive() else { return loop.makeFailedFuture(error) }
                return loop.scheduleTask(in: .milliseconds(20)) {}.futureResult.flatMap {
                    connectToTarget(port: port, on: loop, deadline: deadline, isAlive: isAlive)
                }
            }
    }
}

/// One end of a relayed connection: what it reads is written to its partner, reads pause while
/// the partner cannot take more, and each read acknowledges at once (`TCP_QUICKACK`, which Linux
/// clears again by itself, so it is set after every read).
private final class RelayHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private var partner: RelayHandler?
    private var context: ChannelHandlerContext?
    private var readPending = false

    private init() {}

    /// Two handlers that relay to each other.
    static func pair() -> (RelayHandler, RelayHandler) {
        let first = RelayHandler()
        let second = RelayHandler()
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
        Self.acknowledgeAtOnce(context.channel)
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

    private static func acknowledgeAtOnce(_ channel: any Channel) {
        #if os(Linux)
        try? channel.syncOptions?.setOption(ChannelOptions.tcpOption(NIOBSDSocket.Option(rawValue: CInt(TCP_QUICKACK))), value: 1)
        #endif
    }
}
