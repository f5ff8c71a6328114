import NIOCore
import NIOWebSocket

/// The last handler of an upgraded connection: joins fragmented messages, answers pings, plays
/// its part of the close handshake and reports the end of the connection.
///
/// It runs on the channel's event loop only; what the client object needs to see lives in
/// ``WebSocketConnectionState``.
final class WebSocketFrameHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private let state: WebSocketConnectionState
    private var fragments: ByteBuffer?
    private var fragmentKind: WebSocketMessage.Kind = .text

    init(state: WebSocketConnectionState) {
        self.state = state
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .text, .binary:
            let kind: WebSocketMessage.Kind = frame.opcode == .text ? .text : .binary
            guard fragments == nil else {
                fail(context: context, status: .protocolError,
                     reason: "a new message started before the fragmented one ended")
                return
            }
            if frame.fin {
                deliver(frame.unmaskedData, kind: kind)
            } else {
                fragmentKind = kind
                fragments = frame.unmaskedData
                checkFragmentSize(context: context)
            }
        case .continuation:
            guard var buffer = fragments else {
                fail(context: context, status: .protocolError, reason: "a continuation frame without a message to continue")
                return
            }
            var data = frame.unmaskedData
            buffer.writeBuffer(&data)
            fragments = buffer
            guard checkFragmentSize(context: context) else { return }
            if frame.fin {
                fragments = nil
                deliver(buffer, kind: fragmentKind)
            }
        case .ping:
            let pong = WebSocketFrame(fin: true, opcode: .pong, maskKey: .random(), data: frame.unmaskedData)
            context.writeAndFlush(wrapOutboundOut(pong), promise: nil)
        case .pong:
            receivedPong(frame.unmaskedData)
        case .connectionClose:
            receivedClose(context: context, payload: frame.unmaskedData)
        default:
            fail(context: context, status: .protocolError, reason: "unknown opcode \(frame.opcode)")
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        state.connectionEnded()
        context.fireChannelInactive()
    }

    /// Decoding errors (a frame over the size limit, a malformed frame) end the connection with
    /// the matching status. Recorded before closing: closing can report the end synchronously.
    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let error = error as? NIOWebSocketError else {
            state.values.withLockedValue { values in
                if values.failure == nil { values.failure = .connectionLost(reason: "\(error)") }
            }
            context.close(promise: nil)
            return
        }
        if case .invalidFrameLength = error {
            state.values.withLockedValue { values in
                if values.failure == nil { values.failure = .messageTooLarge(limit: state.maximumMessageSize) }
            }
            sendClose(context: context, status: .messageTooLarge, reason: "")
            context.close(promise: nil)
        } else {
            fail(context: context, status: .protocolError, reason: "\(error)")
        }
    }

    private func deliver(_ buffer: ByteBuffer, kind: WebSocketMessage.Kind) {
        state.onMessage(WebSocketMessage(kind: kind, bytes: Array(buffer.readableBytesView)))
    }

    /// Whether the message being joined is still within the size limit; closes with 1009 if not.
    @discardableResult
    private func checkFragmentSize(context: ChannelHandlerContext) -> Bool {
        guard let fragments, fragments.readableBytes > state.maximumMessageSize else { return true }
        self.fragments = nil
        state.values.withLockedValue { $0.failure = .messageTooLarge(limit: state.maximumMessageSize) }
        sendClose(context: context, status: .messageTooLarge, reason: "")
        context.close(promise: nil)
        return false
    }

    private func receivedPong(_ payload: ByteBuffer) {
        guard payload.readableBytes == 8, let number = payload.getInteger(at: payload.readerIndex, as: UInt64.self) else { return }
        let waiter = state.values.withLockedValue { $0.pingWaiters.removeValue(forKey: number) }
        waiter?.resume(returning: .success(()))
    }

    private func receivedClose(context: ChannelHandlerContext, payload: ByteBuffer) {
        var payload = payload
        let code = payload.readableBytes >= 2 ? payload.readInteger(as: UInt16.self) : nil
        let reason = payload.readString(length: payload.readableBytes) ?? ""
        let answer = state.values.withLockedValue { values -> Bool in
            if values.peerClose == nil { values.peerClose = (code, reason) }
            let answer = !values.closeFrameSent
            values.closeFrameSent = true
            return answer
        }
        if answer {
            // RFC 6455 5.5.1: echo the status code, then the side that received the first close
            // frame's answer (the client) may close the TCP connection.
            var echo = context.channel.allocator.buffer(capacity: 2)
            if let code { echo.writeInteger(code) }
            let frame = WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: echo)
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(frame)).whenComplete { _ in channel.close(promise: nil) }
        } else {
            context.close(promise: nil)
        }
    }

    private func fail(context: ChannelHandlerContext, status: WebSocketErrorCode, reason: String) {
        state.values.withLockedValue { values in
            if values.failure == nil { values.failure = .connectionLost(reason: "protocol error: \(reason)") }
        }
        sendClose(context: context, status: status, reason: reason)
        context.close(promise: nil)
    }

    private func sendClose(context: ChannelHandlerContext, status: WebSocketErrorCode, reason: String) {
        let alreadySent = state.values.withLockedValue { values -> Bool in
            defer { values.closeFrameSent = true }
            return values.closeFrameSent
        }
        guard !alreadySent else { return }
        var payload = context.channel.allocator.buffer(capacity: 2 + reason.utf8.count)
        payload.write(webSocketErrorCode: status)
        payload.writeString(reason)
        let frame = WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: payload)
        context.writeAndFlush(wrapOutboundOut(frame), promise: nil)
    }
}
