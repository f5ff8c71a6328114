
/// A frame's move to a new URL: a new document (`Page.frameNavigated`) or a move within the
/// same document (`Page.navigatedWithinDocument`: `history.pushState`, `replaceState`, a
/// fragment).
///
/// ```swift
/// for await event in page.events(["Page.frameNavigated", "Page.navigatedWithinDocument"]) {
///     if let navigation = FrameNavigation(event), navigation.isRootFrame(of: target.targetID) { print(navigation.url) }
/// }
/// ```
public struct FrameNavigation: Sendable, Equatable {
    /// The frame that navigated.
    public let frameID: String
    /// Its parent frame, for a new document in a child frame; `nil` for a target's root frame
    /// and for same-document navigations (the event does not say).
    public let parentFrameID: String?
    /// The frame's new URL.
    public let url: String
    /// Whether the frame kept its document (a same-document navigation).
    public let isSameDocument: Bool
    /// The loader of the new document (new documents only).
    public let loaderID: String?
    /// The session of the target it happened in.
    public let sessionID: String?

    /// Whether the frame is the root frame of the target `targetID` (a tab's main frame, an
    /// out-of-process frame's own frame): Chromium gives a target's root frame the target's ID.
    public func isRootFrame(of targetID: String) -> Bool {
        frameID == targetID
    }

    /// Reads `Page.frameNavigated` or `Page.navigatedWithinDocument`; `nil` for other events.
    public init?(_ event: DevToolsEvent) {
        switch event.method {
        case "Page.frameNavigated":
            guard let frame = event.parameters["frame"], let id = frame["id"]?.stringValue else { return nil }
            frameID = id
            parentFrameID = frame["parentId"]?.stringValue
            url = (frame["url"]?.stringValue ?? "") + (frame["urlFragment"]?.stringValue ?? "")
            isSameDocument = false
            loaderID = frame["loaderId"]?.stringValue
        case "Page.navigatedWithinDocument":
            guard let id = event.parameters["frameId"]?.stringValue else { return nil }
            frameID = id
            parentFrameID = nil
            url = event.parameters["url"]?.stringValue ?? ""
            isSameDocument = true
            loaderID = nil
        default:
            return nil
        }
        sessionID = event.sessionID
    }
}
