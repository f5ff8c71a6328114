import SystemSupport

/// One `GM_notification` call, as the script gave it, as PageScript reports it. Where nothing is
/// shown (`run`, `batch`; no notification service) it is closed at once (`ondone` is called with
/// `clicked` false) and `onclick` is never called; `browse` and `edit` also show it on the
/// desktop and deliver its click (``GMNotificationDisplay``).
///
/// In `--json` it is an entry of the `userscript` member's `"notifications"`:
/// `{"text","title","image"?,"tag"?,"silent"?,"highlight"?,"timeout"?,"url"?}`, the optional
/// members present when the script gave them.
public struct GMNotification: Sendable, Equatable {
    /// The message; empty for a notification that only highlights the tab.
    public var text: String
    /// The title; empty when the script gave none.
    public var title: String
    /// The image's URL.
    public var image: String?
    /// The tag: a later notification with the same tag replaces this one (as Tampermonkey
    /// updates the one shown).
    public var tag: String?
    /// Whether the script asked for no sound.
    public var silent: Bool?
    /// Whether the script asked to highlight its tab.
    public var highlight: Bool?
    /// After how many milliseconds the script asked the notification to close.
    public var timeout: Double?
    /// The URL the script asked to open on a click.
    public var url: String?

    /// A notification with `text` and `title` and nothing else given.
    public init(text: String, title: String = "") {
        self.text = text
        self.title = title
    }

    /// The notification of a page report (`{"kind":"notification", ...}`).
    init(report: JSONValue) {
        self.init(text: report["text"]?.stringValue ?? "", title: report["title"]?.stringValue ?? "")
        image = report["image"]?.stringValue
        tag = report["tag"]?.stringValue
        silent = Self.flag(report["silent"])
        highlight = Self.flag(report["highlight"])
        timeout = report["timeout"]?.doubleValue
        url = report["url"]?.stringValue
    }

    private static func flag(_ value: JSONValue?) -> Bool? {
        if case let .bool(flag)? = value { return flag }
        return nil
    }

    /// Whether it only highlights the tab: no text, `highlight: true`.
    public var onlyHighlights: Bool { text.isEmpty && highlight == true }

    /// The notification as JSON (see the type's discussion).
    public var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [("text", .string(text)), ("title", .string(title))]
        if let image { members.append(("image", .string(image))) }
        if let tag { members.append(("tag", .string(tag))) }
        if let silent { members.append(("silent", .bool(silent))) }
        if let highlight { members.append(("highlight", .bool(highlight))) }
        if let timeout {
            members.append(("timeout", timeout == timeout.rounded() && abs(timeout) < 1e15 ? .integer(Int64(timeout)) : .number(timeout)))
        }
        if let url { members.append(("url", .string(url))) }
        return .object(members)
    }
}
