import WebDriver

/// A browser session a worker of the batch keeps for many pages.
public struct OpenedSession: Sendable {
    /// The WebDriver session.
    public let session: WebDriverSession
    /// The worker it belongs to.
    public let slot: Int
    /// What the records of its pages name as their `engine`.
    public let engine: String

    /// Creates the value.
    public init(session: WebDriverSession, slot: Int, engine: String) {
        self.session = session
        self.slot = slot
        self.engine = engine
    }
}
