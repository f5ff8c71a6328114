import SystemSupport

/// The `Page` domain: navigation, document-start scripts, isolated worlds and dialogs.
extension DevToolsSession {
    /// `Page.enable`: report navigations (`Page.frameNavigated`, `Page.navigatedWithinDocument`),
    /// `Page.domContentEventFired`, `Page.loadEventFired` and `Page.javascriptDialogOpening`.
    public func enablePage() async throws(DevToolsError) {
        _ = try await send(.enablePage)
    }

    /// `Page.setLifecycleEventsEnabled`: report `Page.lifecycleEvent` (`init`,
    /// `DOMContentLoaded`, `load`, `networkAlmostIdle`, `networkIdle`, …) for every frame.
    public func setLifecycleEventsEnabled(_ enabled: Bool = true) async throws(DevToolsError) {
        _ = try await send(.setLifecycleEventsEnabled(enabled))
    }

    /// `Page.navigate`: starts loading `url` in the target's main frame and returns its frame ID
    /// once the navigation has been committed or has failed; it does not wait for the load
    /// (subscribe to `Page.loadEventFired` or ``LifecycleEvent`` before calling it).
    ///
    /// - Throws: ``DevToolsError/commandFailed(method:code:message:data:)`` with the browser's
    ///   `errorText` (`net::ERR_CONNECTION_REFUSED`, …) when the page could not be loaded.
    @discardableResult
    public func navigate(to url: String, timeout: Double? = nil) async throws(DevToolsError) -> String {
        let result = try await send("Page.navigate", ["url": .string(url)], timeout: timeout)
        if let errorText = result["errorText"]?.stringValue, !errorText.isEmpty {
            throw .commandFailed(method: "Page.navigate", code: 0, message: errorText, data: url)
        }
        return result["frameId"]?.stringValue ?? ""
    }

    /// `Page.reload`.
    public func reload(ignoringCache: Bool = false) async throws(DevToolsError) {
        _ = try await send("Page.reload", ["ignoreCache": .bool(ignoringCache)])
    }

    /// `Page.addScriptToEvaluateOnNewDocument`: runs `source` in every new document of this
    /// target (every frame in its process, every later navigation) before the document's own
    /// scripts. Returns the identifier for ``removeScriptToEvaluateOnNewDocument(_:)``.
    ///
    /// Sent while the target waits after auto-attach (``TargetFollower``), it also reaches the
    /// target's first document. The script is this session's: it is gone once the session
    /// detaches or the connection closes.
    ///
    /// ```swift
    /// try await page.addScriptToEvaluateOnNewDocument("window.startedAt = performance.now()")
    /// ```
    ///
    /// - Parameters:
    ///   - source: The script.
    ///   - worldName: Run it in an isolated world of that name instead of the page's main world:
    ///     it shares the DOM but none of the page's JavaScript globals.
    ///   - runImmediately: Also run it now in the documents already loaded.
    @discardableResult
    public func addScriptToEvaluateOnNewDocument(
        _ source: String, worldName: String? = nil, runImmediately: Bool = false
    ) async throws(DevToolsError) -> String {
        let result = try await send(.addScriptToEvaluateOnNewDocument(source, worldName: worldName, runImmediately: runImmediately))
        guard let identifier = result["identifier"]?.stringValue else {
            throw .malformedReply(method: "Page.addScriptToEvaluateOnNewDocument", reason: "no identifier")
        }
        return identifier
    }

    /// `Page.removeScriptToEvaluateOnNewDocument`.
    public func removeScriptToEvaluateOnNewDocument(_ identifier: String) async throws(DevToolsError) {
        _ = try await send("Page.removeScriptToEvaluateOnNewDocument", ["identifier": .string(identifier)])
    }

    /// `Page.createIsolatedWorld`: a new isolated world in `frameID` and its execution context ID.
    public func createIsolatedWorld(frameID: String, worldName: String) async throws(DevToolsError) -> Int {
        let result = try await send("Page.createIsolatedWorld", ["frameId": .string(frameID), "worldName": .string(worldName)])
        guard let contextID = result["executionContextId"]?.intValue else {
            throw .malformedReply(method: "Page.createIsolatedWorld", reason: "no executionContextId")
        }
        return contextID
    }

    /// The ID of the target's main frame (`Page.getFrameTree`).
    public func mainFrameID() async throws(DevToolsError) -> String {
        let result = try await send("Page.getFrameTree")
        guard let frameID = result["frameTree"]?["frame"]?["id"]?.stringValue else {
            throw .malformedReply(method: "Page.getFrameTree", reason: "no main frame")
        }
        return frameID
    }

    /// `Page.handleJavaScriptDialog`: answers the `alert`, `confirm`, `prompt` or `beforeunload`
    /// dialog that ``JavaScriptDialog`` reported.
    public func handleJavaScriptDialog(accept: Bool, promptText: String? = nil) async throws(DevToolsError) {
        var parameters: [(key: String, value: JSONValue)] = [("accept", .bool(accept))]
        if let promptText { parameters.append(("promptText", .string(promptText))) }
        _ = try await send("Page.handleJavaScriptDialog", .object(parameters))
    }

    /// `Page.setBypassCSP`: ignore the page's Content-Security-Policy for this target's later
    /// documents (set it before navigating).
    public func setBypassCSP(_ enabled: Bool = true) async throws(DevToolsError) {
        _ = try await send(.setBypassCSP(enabled))
    }
}
