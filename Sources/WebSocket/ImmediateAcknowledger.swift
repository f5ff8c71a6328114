import NIOCore
#if os(Linux)
import Glibc
#endif

/// Acknowledges every read of a TCP connection at once (`TCP_QUICKACK`, which Linux clears again
/// by itself, so it is set after every read), before the read is cut into frames. Add it first
/// in a channel's pipeline.
///
/// A peer that writes twice in a row with Nagle's algorithm on holds the second write until the
/// first is acknowledged, which Linux otherwise delays (docs/engines.md, "WebKit's launch"):
/// WebKit's automation server (an event, then a reply, after every navigation) and Firefox's
/// remote agent (WebDriver BiDi's events and replies, each a frame of its own) both do. Elsewhere
/// than Linux the handler only passes reads on.
public final class ImmediateAcknowledger: ChannelInboundHandler, RemovableChannelHandler {
    public typealias InboundIn = ByteBuffer

    public init() {}

    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        #if os(Linux)
        // Setting it also sends an acknowledgement that is due; a socket that refuses is left as it is.
        try? context.channel.syncOptions?.setOption(ChannelOptions.tcpOption(NIOBSDSocket.Option(rawValue: CInt(TCP_QUICKACK))), value: 1)
        #endif
        context.fireChannelRead(data)
    }
}
