/// Why a WebSocket connection ended.
///
/// A browser that crashes drops its TCP connection without a close frame: that is
/// ``connectionLost(reason:)``, reported as soon as the socket ends.
public enum WebSocketClosure: Sendable, Equatable, CustomStringConvertible {
    /// This side called ``WebSocketClient/close(code:reason:)``.
    case closedLocally
    /// The peer sent a close frame, with its status code (`nil` when it gave none) and reason.
    case closedByPeer(code: UInt16?, reason: String)
    /// The connection ended without a close handshake: the peer died, the network failed, or
    /// the peer broke the protocol.
    case connectionLost(reason: String)
    /// The peer sent a message larger than the client accepts; the client closed with status 1009.
    case messageTooLarge(limit: Int)

    public var description: String {
        switch self {
        case .closedLocally:
            "closed by this side"
        case let .closedByPeer(code, reason):
            "closed by the peer" + (code.map { " with status \($0)" } ?? "") + (reason.isEmpty ? "" : ": \(reason)")
        case let .connectionLost(reason):
            "connection lost: \(reason)"
        case let .messageTooLarge(limit):
            "the peer sent a message larger than \(limit) bytes"
        }
    }
}
