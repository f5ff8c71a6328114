
/// A target auto-attach (or `Target.attachToTarget`) attached: `Target.attachedToTarget`.
public struct AttachedTarget: Sendable, Equatable {
    /// The new flat session for the target.
    public let sessionID: String
    /// The target.
    public let info: TargetInfo
    /// Whether the target is paused before its first script until
    /// ``DevToolsSession/runIfWaitingForDebugger()`` (a new target under
    /// `waitForDebuggerOnStart`); `false` for targets that already ran.
    public let waitingForDebugger: Bool
    /// The session the event came on: `nil` for the browser, a page's session for its
    /// out-of-process frames and workers.
    public let parentSessionID: String?

    /// Reads a `Target.attachedToTarget` event; `nil` for any other event.
    public init?(_ event: DevToolsEvent) {
        guard event.method == "Target.attachedToTarget",
              let sessionID = event.parameters["sessionId"]?.stringValue,
              let info = event.parameters["targetInfo"].flatMap(TargetInfo.init) else { return nil }
        self.sessionID = sessionID
        self.info = info
        if case .bool(true)? = event.parameters["waitingForDebugger"] { waitingForDebugger = true } else { waitingForDebugger = false }
        parentSessionID = event.sessionID
    }
}
