
/// A step in a document's life: `Page.lifecycleEvent` (after
/// ``DevToolsSession/setLifecycleEventsEnabled(_:)``), `Page.domContentEventFired` or
/// `Page.loadEventFired`.
///
/// The userscript moments map onto it: `document-start` is before `init`'s scripts (see
/// ``DevToolsSession/addScriptToEvaluateOnNewDocument(_:worldName:runImmediately:)``),
/// `document-end` is `DOMContentLoaded`, `document-idle` after it.
public struct LifecycleEvent: Sendable, Equatable {
    /// `init`, `DOMContentLoaded`, `load`, `firstPaint`, `networkAlmostIdle`, `networkIdle`, …
    public let name: String
    /// The frame; `nil` for `Page.domContentEventFired` and `Page.loadEventFired`, which are the
    /// main frame's.
    public let frameID: String?
    /// The document's loader; `nil` where the event does not give it.
    public let loaderID: String?
    /// The session of the target it happened in.
    public let sessionID: String?

    /// Reads `Page.lifecycleEvent`, `Page.domContentEventFired` or `Page.loadEventFired`; `nil`
    /// for other events.
    public init?(_ event: DevToolsEvent) {
        switch event.method {
        case "Page.lifecycleEvent":
            guard let name = event.parameters["name"]?.stringValue else { return nil }
            self.name = name
            frameID = event.parameters["frameId"]?.stringValue
            loaderID = event.parameters["loaderId"]?.stringValue
        case "Page.domContentEventFired":
            name = "DOMContentLoaded"
            frameID = nil
            loaderID = nil
        case "Page.loadEventFired":
            name = "load"
            frameID = nil
            loaderID = nil
        default:
            return nil
        }
        sessionID = event.sessionID
    }
}
