import SystemSupport

extension WebDriverSession {
    /// `POST /session/{id}/elements` with a CSS selector: references to the elements of the
    /// current browsing context (the window, or the frame switched to) that match, in document
    /// order, as the driver gives them (objects to pass back, such as to ``switchToFrame(_:timeout:)``).
    ///
    /// ```swift
    /// let frames = try await session.findElements(css: "iframe, frame")
    /// ```
    public func findElements(css selector: String, timeout: Double? = nil) async throws(WebDriverError) -> [JSONValue] {
        let value = try await command(.POST, "/elements", body: ["using": "css selector", "value": .string(selector)],
                                      name: "find elements", timeout: timeout)
        guard let elements = value.arrayValue else { throw .malformedReply(command: "find elements", reason: "not a list") }
        return elements
    }

    /// `POST /session/{id}/frame`: makes the frame that `element` (a reference from
    /// ``findElements(css:timeout:)``, an `iframe` or `frame`) holds the browsing context Execute
    /// Script and Find Elements go to, same-origin or not. ``switchToParentFrame(timeout:)`` goes
    /// back up.
    public func switchToFrame(_ element: JSONValue, timeout: Double? = nil) async throws(WebDriverError) {
        _ = try await command(.POST, "/frame", body: ["id": element], name: "switch to frame", timeout: timeout)
    }

    /// `POST /session/{id}/frame/parent`: back to the browsing context that holds the current frame.
    public func switchToParentFrame(timeout: Double? = nil) async throws(WebDriverError) {
        _ = try await command(.POST, "/frame/parent", body: [:], name: "switch to parent frame", timeout: timeout)
    }

    /// `POST /session/{id}/frame` with a null id: back to the window's top-level document.
    public func switchToTopFrame(timeout: Double? = nil) async throws(WebDriverError) {
        _ = try await command(.POST, "/frame", body: ["id": .null], name: "switch to top frame", timeout: timeout)
    }
}
