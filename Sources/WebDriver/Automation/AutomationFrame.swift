import NIOCore

/// One message of the connection between WebKitWebDriver and the browser it drives (WebKit's
/// remote inspector socket protocol on GLib ports): a 4-byte big-endian length, a flag byte, the
/// message's name ending in a NUL, and its parameters as a serialised GVariant.
///
/// Only the messages that carry inspector traffic are read: `Setup` (the driver attaches to a
/// target: `(tt)`, its connection and target IDs) and `SendMessageToBackend` /
/// `SendMessageToFrontend` (`(tts)`: the same IDs and a JSON message). A GVariant tuple of two
/// 64-bit integers and a string is the two integers, little-endian here, then the string and
/// its NUL: its last member needs no framing offset.
struct AutomationFrame {
    /// The bytes before the name: the length of what follows them, and the flag byte.
    static let headerSize = 5

    /// The frame's name, such as `SendMessageToFrontend`.
    let name: String
    /// The GVariant parameters, after the name's NUL.
    let parameters: ByteBuffer

    /// Reads `frame` (one whole frame, header included); `nil` when it has no name.
    init?(_ frame: ByteBuffer) {
        guard let nul = frame.readableBytesView.dropFirst(Self.headerSize).firstIndex(of: 0) else { return nil }
        let start = frame.readerIndex
        let nameBytes = frame.getBytes(at: start + Self.headerSize, length: nul - start - Self.headerSize) ?? []
        name = String(decoding: nameBytes, as: UTF8.self)
        parameters = frame.getSlice(at: nul + 1, length: frame.writerIndex - nul - 1) ?? ByteBuffer()
    }

    /// The connection and target IDs at the start of the parameters (`Setup`, `SendMessageTo…`).
    var identifiers: (connection: UInt64, target: UInt64)? {
        guard let connection = parameters.getInteger(at: parameters.readerIndex, endianness: .little, as: UInt64.self),
              let target = parameters.getInteger(at: parameters.readerIndex + 8, endianness: .little, as: UInt64.self)
        else { return nil }
        return (connection, target)
    }

    /// The JSON message of a `SendMessageTo…` frame, without its NUL.
    var message: ByteBufferView? {
        guard parameters.readableBytes > 17 else { return nil }
        let view = parameters.readableBytesView.dropFirst(16)
        return view.last == 0 ? view.dropLast() : view
    }

    /// A `SendMessageToBackend` frame carrying `message` to the target `target` on connection
    /// `connection`, with the flag byte the driver's own frames carry.
    static func sendMessageToBackend(connection: UInt64, target: UInt64, flag: UInt8, message: String,
                                     allocator: ByteBufferAllocator) -> ByteBuffer {
        frame("SendMessageToBackend", connection: connection, target: target, flag: flag, message: message, allocator: allocator)
    }

    /// A `Setup` frame that attaches connection `connection` to the target `target`.
    static func setup(connection: UInt64, target: UInt64, flag: UInt8, allocator: ByteBufferAllocator) -> ByteBuffer {
        frame("Setup", connection: connection, target: target, flag: flag, message: nil, allocator: allocator)
    }

    /// A frame named `name` whose parameters are the connection and target IDs, then `message`
    /// and its NUL when there is one (`(tt)` or `(tts)`).
    private static func frame(_ name: String, connection: UInt64, target: UInt64, flag: UInt8, message: String?,
                              allocator: ByteBufferAllocator) -> ByteBuffer {
        let length = name.utf8.count + 1 + 16 + (message.map { $0.utf8.count + 1 } ?? 0)
        var buffer = allocator.buffer(capacity: headerSize + length)
        buffer.writeInteger(UInt32(length), endianness: .big)
        buffer.writeInteger(flag)
        buffer.writeString(name)
        buffer.writeInteger(UInt8(0))
        buffer.writeInteger(connection, endianness: .little)
        buffer.writeInteger(target, endianness: .little)
        if let message {
            buffer.writeString(message)
            buffer.writeInteger(UInt8(0))
        }
        return buffer
    }
}

/// Cuts the relayed byte stream into whole ``AutomationFrame``s, so that a message PageScript
/// sends never lands inside one of the driver's.
package struct AutomationFrameDecoder: ByteToMessageDecoder {
    package typealias InboundOut = ByteBuffer

    package init() {}

    package mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let length = buffer.getInteger(at: buffer.readerIndex, endianness: .big, as: UInt32.self),
              buffer.readableBytes >= AutomationFrame.headerSize + Int(length),
              let frame = buffer.readSlice(length: AutomationFrame.headerSize + Int(length))
        else { return .needMoreData }
        context.fireChannelRead(wrapInboundOut(frame))
        return .continue
    }
}
