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

    /// `GET /session/{id}/window`: the handle of the window or tab commands go to now.
    ///
    /// ```swift
    /// let here = try await session.windowHandle()
    /// ```
    public func windowHandle(timeout: Double? = nil) async throws(WebDriverError) -> String {
        let value = try await command(.GET, "/window", body: nil, name: "get window handle", timeout: timeout)
        guard let handle = value.stringValue else { throw .malformedReply(command: "get window handle", reason: "not a string") }
        remember(windowHandle: handle)
        return handle
    }

    /// `POST /session/{id}/window`: makes the window or tab `handle` the one commands go to.
    /// chromedriver also brings that tab to the front.
    public func switchToWindow(_ handle: String, timeout: Double? = nil) async throws(WebDriverError) {
        do {
            _ = try await command(.POST, "/window", body: ["handle": .string(handle)], name: "switch to window", timeout: timeout)
        } catch {
            // The driver may or may not have switched: read the handle again when next needed.
            forgetWindowHandle()
            throw error
        }
        remember(windowHandle: handle)
    }
}

extension WebDriverSession {
    /// `POST /session/{id}/window/new`: opens a new tab (or window, where the browser has no
    /// tabs) on `about:blank` and returns its handle. The session stays on the window it was on.
    ///
    /// ```swift
    /// let tab = try await session.newWindow()
    /// try await session.switchToWindow(tab)
    /// try await session.navigate(to: "https://example.com/")
    /// ```
    public func newWindow(type: String = "tab", timeout: Double? = nil) async throws(WebDriverError) -> String {
        let value = try await command(.POST, "/window/new", body: ["type": .string(type)], name: "new window", timeout: timeout)
        guard let handle = value["handle"]?.stringValue else {
            throw .malformedReply(command: "new window", reason: "no handle")
        }
        return handle
    }
}

extension WebDriverSession {
    /// `DELETE /session/{id}/window`: closes the window or tab commands go to and returns the
    /// handles of those still open. Commands then need a Switch To Window first.
    ///
    /// ```swift
    /// try await session.switchToWindow(tab)
    /// _ = try await session.closeWindow()
    /// try await session.switchToWindow(original)
    /// ```
    @discardableResult
    public func closeWindow(timeout: Double? = nil) async throws(WebDriverError) -> [String] {
        forgetWindowHandle()
        let value = try await command(.DELETE, "/window", body: nil, name: "close window", timeout: timeout)
        return value.arrayValue?.compactMap(\.stringValue) ?? []
    }
}
