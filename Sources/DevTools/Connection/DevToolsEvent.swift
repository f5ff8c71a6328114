import SystemSupport

/// One event the browser sent: a message with a `method` and no `id`.
///
/// ```swift
/// for await event in page.events(["Page.frameNavigated"]) {
///     print(event.parameters["frame"]?["url"]?.stringValue ?? "")
/// }
/// ```
public struct DevToolsEvent: Sendable, Equatable {
    /// The event's name, e.g. `Page.loadEventFired`.
    public let method: String
    /// Its `params` (an empty object when the browser sent none).
    public let parameters: JSONValue
    /// The flat session it belongs to; `nil` for the browser's own events.
    public let sessionID: String?

    /// Creates an event; the connection makes these.
    public init(method: String, parameters: JSONValue, sessionID: String?) {
        self.method = method
        self.parameters = parameters
        self.sessionID = sessionID
    }
}

/// Which sessions' events a subscriber receives.
public enum DevToolsEventScope: Sendable, Equatable {
    /// Every event on the connection.
    case all
    /// Only the browser's own events (no `sessionId`), e.g. `Target.targetCreated`.
    case browser
    /// Only the events of one flat session. The stream finishes when that session detaches.
    case session(String)

    func includes(_ sessionID: String?) -> Bool {
        switch self {
        case .all: true
        case .browser: sessionID == nil
        case let .session(id): sessionID == id
        }
    }
}
