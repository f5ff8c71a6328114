import SystemSupport

/// A target a ``TargetFollower`` attached to: a tab, a popup, a window, or an out-of-process
/// frame, with the flat session to talk to it.
public struct FollowedTarget: Sendable, Equatable {
    /// The target, as last reported (`Target.targetInfoChanged` keeps URL and title current).
    public let info: TargetInfo
    /// The session for the target's commands and events.
    public let session: DevToolsSession
    /// Whether the target was new and paused before its first script while it was prepared (so
    /// its first document got the document-start scripts); `false` for targets that were already
    /// running when following started, whose current document has loaded without them.
    public let startedPaused: Bool
    /// The session the target was attached through: `nil` for the browser (tabs, windows,
    /// popups), a page's session for its out-of-process frames.
    public let parentSessionID: String?
    /// The replies to the preparation's commands, in their order: each `result` (for example the
    /// `identifier` of an added script), or `.null` for a command that failed. Empty until the
    /// target is prepared.
    public let preparationReplies: [JSONValue]

    /// Creates a followed target; the follower makes these.
    public init(info: TargetInfo, session: DevToolsSession, startedPaused: Bool, parentSessionID: String?,
                preparationReplies: [JSONValue] = []) {
        self.info = info
        self.session = session
        self.startedPaused = startedPaused
        self.parentSessionID = parentSessionID
        self.preparationReplies = preparationReplies
    }

    /// The target's ID.
    public var targetID: String { info.targetID }

    func with(info: TargetInfo) -> FollowedTarget {
        FollowedTarget(info: info, session: session, startedPaused: startedPaused, parentSessionID: parentSessionID,
                       preparationReplies: preparationReplies)
    }

    func with(preparationReplies: [JSONValue]) -> FollowedTarget {
        FollowedTarget(info: info, session: session, startedPaused: startedPaused, parentSessionID: parentSessionID,
                       preparationReplies: preparationReplies)
    }
}
