extension WebDriverError {
    /// Whether the error says the browser, its window or the session is gone for good (closed by
    /// the user, crashed, deleted), as opposed to one command failing: in the W3C codes, or in
    /// chromedriver's and WebKitWebDriver's own words for an unknown error.
    ///
    /// ```swift
    /// catch let error as WebDriverError where error.meansTheSessionIsGone { stopFollowing() }
    /// ```
    public var meansTheSessionIsGone: Bool {
        switch self {
        case .protocolError(code: .invalidSessionID, _, _), .protocolError(code: .noSuchWindow, _, _):
            return true
        case let .unknownProtocolError(_, message), let .protocolError(code: .unknownError, message, _):
            return Self.saysTheSessionIsGone(message) || Self.saysTheSessionIsGone(description)
        case .unreachable, .requestTimedOut, .malformedReply, .protocolError:
            return false
        }
    }

    private static func saysTheSessionIsGone(_ message: String) -> Bool {
        let lowered = message.lowercased()
        return ["tab crashed", "session deleted", "not reachable", "disconnected", "target window already closed",
                "browser has closed", "web process", "no such window", "target closed"].contains { lowered.contains($0) }
    }
}
