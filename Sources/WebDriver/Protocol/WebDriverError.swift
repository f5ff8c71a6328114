/// Everything that can go wrong talking to a WebDriver endpoint.
public enum WebDriverError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The endpoint answered with a W3C error.
    case protocolError(code: WebDriverErrorCode, message: String, stacktrace: String)
    /// The endpoint answered with an error code this client does not know (a vendor extension).
    case unknownProtocolError(code: String, message: String)
    /// No connection could be made to the endpoint.
    case unreachable(endpoint: String, reason: String)
    /// The endpoint did not answer `command` within `seconds`.
    case requestTimedOut(command: String, seconds: Double)
    /// The endpoint's reply was not the JSON the protocol promises.
    case malformedReply(command: String, reason: String)

    /// The W3C code, when the endpoint sent one this client knows.
    public var code: WebDriverErrorCode? {
        if case let .protocolError(code, _, _) = self { return code }
        return nil
    }

    public var description: String {
        switch self {
        case let .protocolError(code, message, _):
            "WebDriver error '\(code.rawValue)': \(message)"
        case let .unknownProtocolError(code, message):
            "WebDriver error '\(code)': \(message)"
        case let .unreachable(endpoint, reason):
            "cannot reach the WebDriver endpoint \(endpoint): \(reason)"
        case let .requestTimedOut(command, seconds):
            "the WebDriver endpoint did not answer \(command) within \(Self.format(seconds)) s"
        case let .malformedReply(command, reason):
            "the WebDriver endpoint's reply to \(command) was malformed: \(reason)"
        }
    }

    private static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(format: "%.1f", seconds)
    }
}
