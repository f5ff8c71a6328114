extension WebDriverSession {
    /// `GET /session/{id}/window/handles`: the handles of the browser's open windows and tabs.
    ///
    /// ```swift
    /// let opened = Set(try await session.windowHandles()).subtracting(known)
    /// ```
    public func windowHandles(timeout: Double? = nil) async throws(WebDriverError) -> [String] {
        let value = try await command(.GET, "/window/handles", body: nil, name: "get window handles", timeout: timeout)
        guard let handles = value.arrayValue?.compactMap(\.stringValue) else {
            throw .malformedReply(command: "get window handles", reason: "not a list of strings")
        }
        return handles
    }

    /// `POST /session/{id}/window`: makes the window or tab `handle` the one commands go to.
    /// chromedriver also brings that tab to the front.
    public func switchToWindow(_ handle: String, timeout: Double? = nil) async throws(WebDriverError) {
        _ = try await command(.POST, "/window", body: ["handle": .string(handle)], name: "switch to window", timeout: timeout)
    }
}
