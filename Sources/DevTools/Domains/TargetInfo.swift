import SystemSupport

/// A target the browser can be debugged through: a tab (`page`), an out-of-process frame
/// (`iframe`), a worker, the browser's own UI: `Target.TargetInfo`.
///
/// ```swift
/// let pages = try await browser.targets().filter { $0.type == "page" }
/// ```
public struct TargetInfo: Sendable, Equatable {
    /// The target's ID (also the ID of its main frame, for a page).
    public let targetID: String
    /// `page`, `iframe`, `worker`, `service_worker`, `shared_worker`, `browser`, `browser_ui`,
    /// `tab`, `other`…
    public let type: String
    /// The document's title.
    public let title: String
    /// The document's URL.
    public let url: String
    /// Whether some client is attached to it.
    public let attached: Bool
    /// The target that opened it (`window.open`), if any.
    public let openerID: String?
    /// Its browser context (profile or incognito-like context).
    public let browserContextID: String?

    /// Creates a target description.
    public init(targetID: String, type: String, title: String, url: String, attached: Bool = false,
                openerID: String? = nil, browserContextID: String? = nil) {
        self.targetID = targetID
        self.type = type
        self.title = title
        self.url = url
        self.attached = attached
        self.openerID = openerID
        self.browserContextID = browserContextID
    }

    /// Reads a protocol `Target.TargetInfo` object; `nil` without a `targetId` or `type`.
    public init?(_ info: JSONValue) {
        guard let targetID = info["targetId"]?.stringValue, let type = info["type"]?.stringValue else { return nil }
        var attached = false
        if case .bool(true)? = info["attached"] { attached = true }
        self.init(targetID: targetID, type: type, title: info["title"]?.stringValue ?? "",
                  url: info["url"]?.stringValue ?? "", attached: attached,
                  openerID: info["openerId"]?.stringValue, browserContextID: info["browserContextId"]?.stringValue)
    }
}
