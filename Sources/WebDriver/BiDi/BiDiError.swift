import SystemSupport

/// Why a WebDriver BiDi operation failed.
public enum BiDiError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No WebSocket connection could be made to the session's `webSocketUrl`.
    case unreachable(url: String, reason: String)
    /// The browser answered the command with an error (`error` is BiDi's code, such as
    /// `invalid argument`).
    case commandFailed(method: String, error: String, message: String)
    /// No reply came within the command's time.
    case timedOut(method: String, seconds: Double)
    /// The connection ended before the reply came.
    case connectionClosed(method: String, reason: String)

    public var description: String {
        switch self {
        case let .unreachable(url, reason): "WebDriver BiDi at \(url) is unreachable: \(reason)"
        case let .commandFailed(method, error, message): "\(method) failed: \(error)\(message.isEmpty ? "" : ": \(message)")"
        case let .timedOut(method, seconds): "\(method) got no reply within \(seconds.compactText) s"
        case let .connectionClosed(method, reason): "\(method) got no reply: the BiDi connection ended (\(reason))"
        }
    }
}
