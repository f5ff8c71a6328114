import NIOCore
import NIOHTTP1
import NIOPosix
import SystemSupport

/// Fixed pages over HTTP/1.1 on loopback, serving every connection at once (SwiftNIO).
///
/// `TestSupport.LoopbackServer` answers one connection at a time, so a socket Chromium opens
/// ahead of need (a preconnect) and leaves idle holds back the next request: a page whose
/// frame comes from the same server then never finishes loading. Tests with frames use this
/// server instead.
final class ConcurrentPageServer: Sendable {
    let port: Int
    private let channel: any Channel

    init(pages: [String: String]) async throws {
        channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(PageHandler(pages: pages))
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        port = channel.localAddress?.port ?? 0
    }

    /// The URL of `path` on `host` (`127.0.0.1`, or `localhost` for a different site).
    func url(_ path: String, host: String = "127.0.0.1") -> String {
        "http://\(host):\(port)\(path)"
    }

    func stop() async {
        try? await channel.close()
    }
}

private final class PageHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let pages: [String: String]
    private var path = "/"

    init(pages: [String: String]) {
        self.pages = pages
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case let .head(head):
            path = String(head.uri.prefix { $0 != "?" })
        case .body:
            break
        case .end:
            let page = pages[path]
            let body = context.channel.allocator.buffer(string: page ?? "<title>Not found</title>")
            var headers = HTTPHeaders()
            headers.add(name: "Content-Type", value: "text/html; charset=utf-8")
            headers.add(name: "Content-Length", value: "\(body.readableBytes)")
            let head = HTTPResponseHead(version: .http1_1, status: page == nil ? .notFound : .ok, headers: headers)
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }
    }
}
