import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

/// A real WebSocket server on loopback (SwiftNIO) that does what the client asks it in text
/// messages, for the protocol paths Chromium never takes: Chromium's DevTools server sends
/// every message in one frame, never pings, and never starts a close handshake.
///
/// Commands (one per text message):
/// - `echo:TEXT`: sends TEXT back in one frame.
/// - `fragments:N:TEXT`: sends TEXT back in N frames, with a ping between the first two.
/// - `big:N`: sends a text message of N bytes in one frame.
/// - `bigfragments:N`: sends N bytes in 64 KB fragments.
/// - `close:CODE:REASON`: starts a close handshake.
/// - `drop`: closes the TCP connection without a close frame.
/// - `ignore-pings`: stops answering pings.
///
/// The path `/refuse` is answered `403` with the body `refused by the test server`. What the
/// server saw (`unmasked frame`, `pong:PAYLOAD`, `close:CODE`) is in ``observations``.
final class ScriptedWebSocketServer: Sendable {
    let port: Int
    private let channel: any Channel
    private let log = NIOLockedValueBox<[String]>([])

    init() async throws {
        let log = self.log
        let upgrader = NIOWebSocketServerUpgrader(
            maxFrameSize: 1 << 24,
            shouldUpgrade: { channel, head in
                channel.eventLoop.makeSucceededFuture(head.uri == "/refuse" ? nil : HTTPHeaders())
            },
            upgradePipelineHandler: { channel, _ in
                channel.eventLoop.makeCompletedFuture {
                    // Raw WebSocket bytes must not reach the handler for refused requests.
                    let refuser = try channel.pipeline.syncOperations.handler(type: RefusingHTTPHandler.self)
                    channel.pipeline.syncOperations.removeHandler(refuser, promise: nil)
                    try channel.pipeline.syncOperations.addHandler(ScriptedFrameHandler(log: log))
                }
            })
        channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(
                        withServerUpgrade: (upgraders: [upgrader], completionHandler: { _ in }))
                    try channel.pipeline.syncOperations.addHandler(RefusingHTTPHandler())
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        port = channel.localAddress?.port ?? 0
    }

    func url(_ path: String = "/") -> URL {
        URL(string: "ws://127.0.0.1:\(port)\(path)")!
    }

    /// What the server saw, in order.
    var observations: [String] {
        log.withLockedValue { $0 }
    }

    func stop() async {
        try? await channel.close()
    }
}

/// Answers a request that was not upgraded.
private final class RefusingHTTPHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .end = unwrapInboundIn(data) else { return }
        let body = "refused by the test server"
        var headers = HTTPHeaders()
        headers.add(name: "Content-Length", value: "\(body.utf8.count)")
        headers.add(name: "Connection", value: "close")
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .forbidden, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: body)))), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }
}

private final class ScriptedFrameHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private let log: NIOLockedValueBox<[String]>
    private var answersPings = true
    private var closeSent = false

    init(log: NIOLockedValueBox<[String]>) {
        self.log = log
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        if frame.maskKey == nil { record("unmasked frame") }
        switch frame.opcode {
        case .text:
            var data = frame.unmaskedData
            perform(data.readString(length: data.readableBytes) ?? "", context: context)
        case .ping:
            if answersPings { send(.pong, frame.unmaskedData, context: context) }
        case .pong:
            var data = frame.unmaskedData
            record("pong:" + (data.readString(length: data.readableBytes) ?? ""))
        case .connectionClose:
            var data = frame.unmaskedData
            record("close:" + (data.readInteger(as: UInt16.self).map(String.init) ?? "none"))
            if closeSent {
                context.close(promise: nil)
            } else {
                closeSent = true
                var echo = context.channel.allocator.buffer(capacity: 2)
                echo.writeInteger(UInt16(1000))
                let channel = context.channel
                context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: echo)))
                    .whenComplete { _ in channel.close(promise: nil) }
            }
        default:
            break
        }
    }

    private func perform(_ command: String, context: ChannelHandlerContext) {
        let parts = command.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        switch parts[0] {
        case "echo":
            sendText(String(command.dropFirst("echo:".count)), context: context)
        case "fragments":
            let count = Int(parts[1]) ?? 1
            let bytes = Array(parts[2].utf8)
            let size = max(1, (bytes.count + count - 1) / count)
            let chunks = stride(from: 0, to: bytes.count, by: size).map { Array(bytes[$0..<min($0 + size, bytes.count)]) }
            for (index, chunk) in chunks.enumerated() {
                let opcode: WebSocketOpcode = index == 0 ? .text : .continuation
                let frame = WebSocketFrame(fin: index == chunks.count - 1, opcode: opcode, data: context.channel.allocator.buffer(bytes: chunk))
                context.write(wrapOutboundOut(frame), promise: nil)
                if index == 0 { send(.ping, context.channel.allocator.buffer(string: "between fragments"), context: context) }
            }
            context.flush()
        case "big":
            sendText(String(repeating: "b", count: Int(parts[1]) ?? 0), context: context)
        case "bigfragments":
            let total = Int(parts[1]) ?? 0
            var sent = 0
            while sent < total {
                let size = min(65536, total - sent)
                let opcode: WebSocketOpcode = sent == 0 ? .text : .continuation
                let frame = WebSocketFrame(
                    fin: sent + size == total, opcode: opcode,
                    data: context.channel.allocator.buffer(repeating: UInt8(ascii: "f"), count: size))
                context.write(wrapOutboundOut(frame), promise: nil)
                sent += size
            }
            context.flush()
        case "close":
            closeSent = true
            var payload = context.channel.allocator.buffer(capacity: 16)
            payload.writeInteger(UInt16(parts[1]) ?? 1000)
            payload.writeString(parts.count > 2 ? parts[2] : "")
            send(.connectionClose, payload, context: context)
        case "drop":
            context.close(promise: nil)
        case "ignore-pings":
            answersPings = false
            sendText("ignoring pings", context: context)
        default:
            sendText("unknown command", context: context)
        }
    }

    private func sendText(_ text: String, context: ChannelHandlerContext) {
        send(.text, context.channel.allocator.buffer(string: text), context: context)
    }

    private func send(_ opcode: WebSocketOpcode, _ data: ByteBuffer, context: ChannelHandlerContext) {
        context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: opcode, data: data)), promise: nil)
    }

    private func record(_ observation: String) {
        log.withLockedValue { $0.append(observation) }
    }
}
