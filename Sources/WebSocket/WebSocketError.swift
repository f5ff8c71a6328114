import SystemSupport
/// Why a WebSocket operation failed.
public enum WebSocketError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The URL is not a `ws://` URL with a host.
    case invalidURL(String)
    /// No TCP connection could be made.
    case unreachable(url: String, reason: String)
    /// The server answered the upgrade request with something other than `101 Switching Protocols`.
    case handshakeRefused(url: String, status: Int, body: String)
    /// The operation did not finish in time.
    case timedOut(operation: String, seconds: Double)
    /// The connection has ended.
    case closed(WebSocketClosure)

    public var description: String {
        switch self {
        case let .invalidURL(url):
            "not a ws:// URL: \(url)"
        case let .unreachable(url, reason):
            "cannot connect to \(url): \(reason)"
        case let .handshakeRefused(url, status, body):
            "\(url) refused the WebSocket upgrade with HTTP status \(status)" + (body.isEmpty ? "" : ": \(body)")
        case let .timedOut(operation, seconds):
            "\(operation) did not finish within \(seconds.compactText) s"
        case let .closed(closure):
            "the WebSocket connection has ended (\(closure))"
        }
    }
}
