import SystemSupport
import WebSocket

/// Why a DevTools Protocol operation failed.
///
/// Every pending command fails with ``connectionClosed(_:)`` the moment the connection ends, so
/// a browser that crashes mid-command surfaces at once, never as a hang or a late timeout.
public enum DevToolsError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The browser answered the command with a protocol error (`{"error": {code, message, data}}`),
    /// for example `-32601` for an unknown method or `-32000` for a failed precondition.
    case commandFailed(method: String, code: Int, message: String, data: String?)
    /// The JavaScript the command ran threw, or its promise rejected.
    case exceptionThrown(method: String, ExceptionDetails)
    /// The connection ended before the reply arrived, or had already ended.
    case connectionClosed(WebSocketClosure)
    /// No reply arrived within the command's timeout.
    case timedOut(method: String, seconds: Double)
    /// The task that sent the command was cancelled.
    case cancelled(method: String)
    /// The endpoint could not be found or reached (HTTP discovery, TCP, the upgrade handshake).
    case unreachable(endpoint: String, reason: String)
    /// A message or reply was not what the protocol promises.
    case malformedReply(method: String, reason: String)

    public var description: String {
        switch self {
        case let .commandFailed(method, code, message, data):
            "\(method) failed: \(message) (\(code))" + (data.map { ": \($0)" } ?? "")
        case let .exceptionThrown(method, details):
            "\(method): the script threw: \(details)"
        case let .connectionClosed(closure):
            "the DevTools connection ended: \(closure)"
        case let .timedOut(method, seconds):
            "\(method) got no reply within \(seconds.compactText) s"
        case let .cancelled(method):
            "\(method) was cancelled"
        case let .unreachable(endpoint, reason):
            "cannot reach the DevTools endpoint \(endpoint): \(reason)"
        case let .malformedReply(method, reason):
            "unexpected reply to \(method): \(reason)"
        }
    }

    /// The CDP error code, for ``commandFailed(method:code:message:data:)``.
    public var protocolErrorCode: Int? {
        if case let .commandFailed(_, code, _, _) = self { return code }
        return nil
    }
}
