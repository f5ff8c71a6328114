import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix

/// A plain-HTTP/1.1 client with keep-alive connections, made for the one thing a WebDriver client
/// does: one small request and its whole reply, again and again, on a loopback or LAN endpoint.
///
/// Each request takes an idle connection (or opens one), writes the request from the
/// connection's event loop and waits for the whole reply there: one hop onto the loop and one
/// back, where AsyncHTTPClient's general machinery (a pool state machine, a streamed body)
/// adds to every round trip. `TCP_NODELAY` is set: a request leaves at once.
///
/// A connection the server closed while idle is found out when the next request on it gets no
/// reply at all; that request is sent once more on a new connection (what browsers do too).
final class KeepAliveHTTPClient: Sendable {
    /// A whole reply.
    struct Response: Sendable {
        let status: HTTPResponseStatus
        let body: ByteBuffer
        let keepAlive: Bool
    }

    /// Why a request got no reply.
    enum Failure: Error, Sendable {
        /// No connection within the connect timeout.
        case connectTimedOut
        /// The connection could not be made (the system's reason).
        case connectFailed(String)
        /// No whole reply within the request's time.
        case timedOut
        /// The connection closed (or failed) before the whole reply; `receivedAny`: some of it came.
        case closed(receivedAny: Bool, reason: String)
        /// The reply was larger than the limit.
        case tooLarge
        /// The calling task was cancelled.
        case cancelled
    }

    let host: String
    let port: Int
    let connectTimeout: TimeAmount
    static let maximumBody = 256 * 1024 * 1024

    private let idle = NIOLockedValueBox<[Connection]>([])

    init(host: String, port: Int, connectTimeout: TimeAmount) {
        self.host = host
        self.port = port
        self.connectTimeout = connectTimeout
    }

    /// Sends one request (`head` gets `Host` and `Content-Length` here) and returns the whole reply.
    func execute(_ head: HTTPRequestHead, body: ByteBuffer?, timeout: TimeAmount) async throws(Failure) -> Response {
        var head = head
        let name = host.contains(":") ? "[\(host)]" : host
        head.headers.replaceOrAdd(name: "Host", value: port == 80 ? name : "\(name):\(port)")
        head.headers.replaceOrAdd(name: "Content-Length", value: String(body?.readableBytes ?? 0))
        let deadline = NIODeadline.now() + timeout
        if let reused = takeIdle() {
            do {
                return try await exchange(on: reused, head: head, body: body, deadline: deadline)
            } catch .closed(receivedAny: false, _) {
                // The server closed it while it sat idle: once more on a new connection.
            }
        }
        let fresh = try await connect()
        return try await exchange(on: fresh, head: head, body: body, deadline: deadline)
    }

    /// Closes every idle connection.
    func closeIdleConnections() {
        let connections = idle.withLockedValue { connections in
            defer { connections = [] }
            return connections
        }
        for connection in connections { connection.channel.close(promise: nil) }
    }

    private func exchange(on connection: Connection, head: HTTPRequestHead, body: ByteBuffer?, deadline: NIODeadline) async throws(Failure) -> Response {
        let response: Response
        do {
            response = try await connection.exchange(head: head, body: body, deadline: deadline)
        } catch {
            connection.channel.close(promise: nil)
            throw error
        }
        if response.keepAlive, connection.channel.isActive {
            idle.withLockedValue { $0.append(connection) }
        } else {
            connection.channel.close(promise: nil)
        }
        return response
    }

    private func takeIdle() -> Connection? {
        idle.withLockedValue { connections in
            while let last = connections.popLast() {
                if last.channel.isActive { return last }
            }
            return nil
        }
    }

    private func connect() async throws(Failure) -> Connection {
        let collector = ReplyCollector()
        let bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(connectTimeout)
            .channelOption(.tcpOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(collector)
                }
            }
        do {
            let channel = try await bootstrap.connect(host: host, port: port).get()
            return Connection(channel: channel, collector: collector)
        } catch let error as ChannelError {
            if case .connectTimeout = error { throw .connectTimedOut }
            throw .connectFailed("\(error)")
        } catch {
            throw .connectFailed("\(error)")
        }
    }
}

extension KeepAliveHTTPClient {
    /// One TCP connection and the handler that gathers its replies.
    struct Connection: Sendable {
        let channel: any Channel
        let collector: ReplyCollector

        func exchange(head: HTTPRequestHead, body: ByteBuffer?, deadline: NIODeadline) async throws(Failure) -> Response {
            let loop = channel.eventLoop
            let promise = loop.makePromise(of: Response.self)
            let channel = channel
            let collector = collector
            loop.execute {
                guard channel.isActive else {
                    promise.fail(Failure.closed(receivedAny: false, reason: "the connection is closed"))
                    return
                }
                collector.expect(promise, deadline: deadline, on: channel)
                channel.write(HTTPClientRequestPart.head(head), promise: nil)
                if let body, body.readableBytes > 0 {
                    channel.write(HTTPClientRequestPart.body(.byteBuffer(body)), promise: nil)
                }
                channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
            }
            do {
                return try await withTaskCancellationHandler {
                    try await promise.futureResult.get()
                } onCancel: {
                    loop.execute { collector.fail(.cancelled, closing: channel) }
                }
            } catch let failure as Failure {
                throw failure
            } catch {
                throw .closed(receivedAny: false, reason: "\(error)")
            }
        }
    }

    /// Gathers one reply at a time; lives on its connection's event loop, where every member is
    /// read and written.
    final class ReplyCollector: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = HTTPClientResponsePart

        private var pending: EventLoopPromise<Response>?
        private var head: HTTPResponseHead?
        private var body: ByteBuffer?
        private var deadline: Scheduled<Void>?

        func expect(_ promise: EventLoopPromise<Response>, deadline: NIODeadline, on channel: any Channel) {
            pending = promise
            head = nil
            body = nil
            self.deadline = channel.eventLoop.scheduleTask(deadline: deadline) { [weak self] in
                self?.fail(.timedOut, closing: channel)
            }
        }

        func fail(_ failure: Failure, closing channel: any Channel) {
            guard let promise = take() else { return }
            promise.fail(failure)
            channel.close(promise: nil)
        }

        private func take() -> EventLoopPromise<Response>? {
            defer {
                pending = nil
                deadline?.cancel()
                deadline = nil
            }
            return pending
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case let .head(received):
                head = received
                body = context.channel.allocator.buffer(capacity: 512)
            case var .body(part):
                guard (body?.readableBytes ?? 0) + part.readableBytes <= KeepAliveHTTPClient.maximumBody else {
                    fail(.tooLarge, closing: context.channel)
                    return
                }
                body?.writeBuffer(&part)
            case .end:
                guard let head, let promise = take() else { return }
                promise.succeed(Response(status: head.status, body: body ?? ByteBuffer(), keepAlive: head.isKeepAlive))
                self.head = nil
                body = nil
            }
        }

        func channelInactive(context: ChannelHandlerContext) {
            let receivedAny = head != nil
            if let promise = take() {
                promise.fail(Failure.closed(receivedAny: receivedAny, reason: "the connection closed before the whole reply"))
            }
            context.fireChannelInactive()
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            let receivedAny = head != nil
            if let promise = take() {
                promise.fail(Failure.closed(receivedAny: receivedAny, reason: "\(error)"))
            }
            context.close(promise: nil)
        }
    }
}
