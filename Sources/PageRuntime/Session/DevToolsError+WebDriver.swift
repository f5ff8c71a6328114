import DevTools
import WebDriver

extension DevToolsError {
    /// The same failure in the terms a ``PageSession`` understands: a tab or connection that is
    /// gone is unreachable; a command the browser refused is a protocol error.
    public func asWebDriverError(method: String) -> WebDriverError {
        switch self {
        case let .commandFailed(_, code, message, _): .unknownProtocolError(code: String(code), message: message)
        case .exceptionThrown: .unknownProtocolError(code: "exception", message: description)
        case let .timedOut(_, seconds): .requestTimedOut(command: method, seconds: seconds)
        case .connectionClosed, .cancelled: .unreachable(endpoint: "DevTools", reason: description)
        case let .unreachable(endpoint, reason): .unreachable(endpoint: endpoint, reason: reason)
        case let .malformedReply(_, reason): .malformedReply(command: method, reason: reason)
        }
    }
}
