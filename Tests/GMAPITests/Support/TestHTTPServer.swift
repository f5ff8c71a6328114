import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// A real HTTP/1.1 server on a loopback address (127.0.0.1, 127.0.0.2 — Linux answers on all of
/// 127.0.0.0/8 — or ::1), answering each request with what `handler` says and recording every
/// request it receives, so that a test can prove a refused request never reached it.
final class TestHTTPServer: @unchecked Sendable {
    /// One request as received.
    struct Request: Sendable {
        let method: String
        let uri: String
        let headers: [(name: String, value: String)]
        let body: [UInt8]

        func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }

        var path: String { String(uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]) }
    }

    /// What the server does with a request.
    enum Reply: Sendable {
        /// A whole response, with `Content-Length`.
        case respond(status: Int, headers: [(String, String)], body: [UInt8])
        /// The head, then nothing, the connection held open: a server that stalls mid-response.
        case headThenStall(status: Int, headers: [(String, String)])
        /// `count` chunks of `chunkSize` bytes with chunked encoding (no `Content-Length`).
        case chunked(chunkSize: Int, count: Int)

        static func text(_ text: String, status: Int = 200, type: String = "text/plain; charset=utf-8", headers: [(String, String)] = []) -> Reply {
            .respond(status: status, headers: [("Content-Type", type)] + headers, body: Array(text.utf8))
        }

        static func redirect(_ location: String, status: Int = 302) -> Reply {
            .respond(status: status, headers: [("Location", location)], body: [])
        }

        static let notFound = Reply.respond(status: 404, headers: [("Content-Type", "text/plain")], body: Array("not found".utf8))
    }

    let host: String
    let port: Int
    private let channel: any Channel
    private let lock = NSLock()
    private var requests: [Request] = []
    private var connections: [any Channel] = []

    /// The servers' own threads, apart from the clients' (`.singleton`), so that a server busy
    /// writing a large body never delays the client under test.
    static let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)

    init(host: String = "127.0.0.1", handler: @escaping @Sendable (Request) -> Reply) throws {
        self.host = host
        let recorder = Recorder()
        let channel = try ServerBootstrap(group: Self.group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { child in
                recorder.opened(child)
                return child.pipeline.configureHTTPServerPipeline().flatMap {
                    child.pipeline.addHandler(Handler(handler: handler, record: { recorder.record($0) }))
                }
            }
            .bind(host: host, port: 0)
            .wait()
        self.channel = channel
        port = channel.localAddress?.port ?? 0
        recorder.server = self
    }

    deinit {
        stop()
    }

    /// `http://HOST:PORT/path`.
    func url(_ path: String = "/") -> String {
        let hostText = host.contains(":") ? "[\(host)]" : host
        return "http://\(hostText):\(port)\(path)"
    }

    /// The requests received so far.
    var received: [Request] {
        lock.lock()
        defer { lock.unlock() }
        return requests
    }

    /// Stops listening and closes every connection.
    func stop() {
        lock.lock()
        let open = connections
        connections = []
        lock.unlock()
        for connection in open { connection.close(promise: nil) }
        // Not waited for: a test's cooperative thread must never block on an event loop.
        channel.close(promise: nil)
    }

    private final class Recorder: @unchecked Sendable {
        /// Set right after binding, before any client can know the port.
        weak var server: TestHTTPServer?

        func opened(_ channel: any Channel) {
            guard let server else { return }
            server.lock.lock()
            server.connections.append(channel)
            server.lock.unlock()
        }

        func record(_ request: Request) {
            guard let server else { return }
            server.lock.lock()
            server.requests.append(request)
            server.lock.unlock()
        }
    }

    private final class Handler: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart

        let handler: @Sendable (Request) -> Reply
        let record: @Sendable (Request) -> Void
        var head: HTTPRequestHead?
        var body: [UInt8] = []

        init(handler: @escaping @Sendable (Request) -> Reply, record: @escaping @Sendable (Request) -> Void) {
            self.handler = handler
            self.record = record
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head):
                self.head = head
                body = []
            case .body(let buffer):
                body.append(contentsOf: buffer.readableBytesView)
            case .end:
                guard let head else { return }
                let request = Request(
                    method: head.method.rawValue,
                    uri: head.uri,
                    headers: head.headers.map { (name: $0.name, value: $0.value) },
                    body: body
                )
                record(request)
                reply(handler(request), to: head, context: context)
            }
        }

        private func reply(_ reply: Reply, to request: HTTPRequestHead, context: ChannelHandlerContext) {
            switch reply {
            case .respond(let status, let headers, let body):
                var responseHead = HTTPResponseHead(version: request.version, status: HTTPResponseStatus(statusCode: status))
                for (name, value) in headers { responseHead.headers.add(name: name, value: value) }
                responseHead.headers.replaceOrAdd(name: "Content-Length", value: String(body.count))
                context.write(wrapOutboundOut(.head(responseHead)), promise: nil)
                if !body.isEmpty {
                    context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body)))), promise: nil)
                }
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            case .headThenStall(let status, let headers):
                var responseHead = HTTPResponseHead(version: request.version, status: HTTPResponseStatus(statusCode: status))
                for (name, value) in headers { responseHead.headers.add(name: name, value: value) }
                responseHead.headers.replaceOrAdd(name: "Content-Length", value: "1000000")
                context.write(wrapOutboundOut(.head(responseHead)), promise: nil)
                context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: Array("partial".utf8))))), promise: nil)
            case .chunked(let chunkSize, let count):
                var responseHead = HTTPResponseHead(version: request.version, status: .ok)
                responseHead.headers.add(name: "Content-Type", value: "application/octet-stream")
                responseHead.headers.add(name: "Transfer-Encoding", value: "chunked")
                context.write(wrapOutboundOut(.head(responseHead)), promise: nil)
                let chunk = ByteBuffer(repeating: UInt8(ascii: "x"), count: chunkSize)
                for _ in 0..<count {
                    context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(chunk))), promise: nil)
                }
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            }
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            context.close(promise: nil)
        }
    }
}
