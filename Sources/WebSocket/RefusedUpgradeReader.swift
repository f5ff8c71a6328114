import Foundation
import NIOCore
import NIOHTTP1

/// Reads the HTTP response of a server that refused the WebSocket upgrade, so that the error can
/// say what it answered (Chromium explains a refused `Origin` or `Host` in the body).
final class RefusedUpgradeReader: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart

    /// The status and the first kilobytes of the body, once the response has ended.
    let response: EventLoopPromise<(status: Int, body: String)>
    private var status = 0
    private var body = ""
    private static let bodyLimit = 2048

    init(eventLoop: EventLoop) {
        response = eventLoop.makePromise()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case let .head(head):
            status = Int(head.status.code)
        case var .body(buffer):
            if body.utf8.count < Self.bodyLimit {
                body += buffer.readString(length: min(buffer.readableBytes, Self.bodyLimit - body.utf8.count)) ?? ""
            }
        case .end:
            response.succeed((status, body.trimmingCharacters(in: .whitespacesAndNewlines)))
            context.close(promise: nil)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        response.succeed((status, body.trimmingCharacters(in: .whitespacesAndNewlines)))
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        response.succeed((status, body))
    }
}
