
/// The `Target` domain: finding, opening, attaching to and closing tabs and other targets.
extension DevToolsSession {
    /// `Target.setDiscoverTargets`: report `Target.targetCreated`, `Target.targetInfoChanged`
    /// and `Target.targetDestroyed` for every target (browser session).
    public func setDiscoverTargets(_ discover: Bool = true) async throws(DevToolsError) {
        _ = try await send("Target.setDiscoverTargets", ["discover": .bool(discover)])
    }

    /// `Target.setAutoAttach` with `flatten: true`: attach to targets as they appear.
    ///
    /// On the browser session this attaches every existing and future target (tabs, windows,
    /// popups, workers, the browser's own UI), each announced by `Target.attachedToTarget` with
    /// its `sessionId`. On a page's session it attaches that page's out-of-process frames and
    /// workers. With `waitForDebuggerOnStart`, a new target stays paused before its first script
    /// until `Runtime.runIfWaitingForDebugger` is sent in its session: the moment to add
    /// document-start scripts. ``TargetFollower`` does all of this.
    public func setAutoAttach(_ autoAttach: Bool = true, waitForDebuggerOnStart: Bool = true) async throws(DevToolsError) {
        _ = try await send(.setAutoAttach(autoAttach, waitForDebuggerOnStart: waitForDebuggerOnStart))
    }

    /// `Target.attachToTarget` with `flatten: true`: a session for the target.
    ///
    /// ```swift
    /// let page = try await connection.browser.attach(toTarget: pageTarget.targetID)
    /// ```
    public func attach(toTarget targetID: String) async throws(DevToolsError) -> DevToolsSession {
        let result = try await send("Target.attachToTarget", ["targetId": .string(targetID), "flatten": true])
        guard let sessionID = result["sessionId"]?.stringValue else {
            throw .malformedReply(method: "Target.attachToTarget", reason: "no sessionId")
        }
        return DevToolsSession(connection: connection, id: sessionID)
    }

    /// `Target.detachFromTarget`: ends `session` (sent on the session it was attached through).
    public func detach(_ session: DevToolsSession) async throws(DevToolsError) {
        guard let sessionID = session.id else { return }
        _ = try await send("Target.detachFromTarget", ["sessionId": .string(sessionID)])
    }

    /// `Target.createTarget`: opens a tab (or a window) and returns its target ID.
    ///
    /// To have document-start scripts run in the new tab's first document, open it at
    /// `about:blank`, prepare its session, then navigate: a tab opened directly at a URL starts
    /// loading before any session can add scripts (``TargetFollower/openTab(url:newWindow:timeout:)``
    /// does it in that order).
    ///
    /// - Parameters:
    ///   - url: The first URL.
    ///   - newWindow: Open a new window rather than a tab.
    ///   - background: Open it without bringing it to the front.
    public func createTarget(url: String = "about:blank", newWindow: Bool = false, background: Bool = false) async throws(DevToolsError) -> String {
        let result = try await send("Target.createTarget", [
            "url": .string(url), "newWindow": .bool(newWindow), "background": .bool(background),
        ])
        guard let targetID = result["targetId"]?.stringValue else {
            throw .malformedReply(method: "Target.createTarget", reason: "no targetId")
        }
        return targetID
    }

    /// `Target.closeTarget`: closes a tab; `true` when the browser agreed.
    @discardableResult
    public func closeTarget(_ targetID: String) async throws(DevToolsError) -> Bool {
        let result = try await send("Target.closeTarget", ["targetId": .string(targetID)])
        if case .bool(let success)? = result["success"] { return success }
        return true
    }

    /// `Target.activateTarget`: brings a tab to the front.
    public func activateTarget(_ targetID: String) async throws(DevToolsError) {
        _ = try await send("Target.activateTarget", ["targetId": .string(targetID)])
    }

    /// `Target.getTargets`: every target the browser has.
    public func targets() async throws(DevToolsError) -> [TargetInfo] {
        let result = try await send("Target.getTargets")
        return (result["targetInfos"]?.arrayValue ?? []).compactMap(TargetInfo.init)
    }
}
