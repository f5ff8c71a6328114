import Foundation

/// One notification for ``DesktopNotifications/show(_:)``: the arguments of the freedesktop
/// `Notify` call.
///
/// ```swift
/// var notification = DesktopNotification(summary: "Saved", body: "3 items")
/// notification.silent = true
/// ```
public struct DesktopNotification: Sendable, Equatable {
    /// The application that sends it.
    public var appName = "PageScript"
    /// The title, shown as plain text.
    public var summary: String
    /// The message, shown as plain text (its markup characters are escaped).
    public var body: String
    /// The notification it replaces (the same one, updated), or 0 for a new one.
    public var replacesID: UInt32 = 0
    /// An image file to show with it (the `image-path` hint).
    public var imagePath: String?
    /// Whether no sound is played (the `suppress-sound` hint).
    public var silent = false
    /// After how many milliseconds the service closes it; `nil` for the service's own choice.
    public var expireTimeout: Int32?

    public init(summary: String, body: String) {
        self.summary = summary
        self.body = body
    }

    /// The `Notify` call's arguments (`app_name`, `replaces_id`, `app_icon`, `summary`, `body`,
    /// `actions`, `hints`, `expire_timeout`) in GVariant's text format, as `gdbus call` reads them.
    /// The one action, `default`, is what a click on the notification invokes.
    var notifyArguments: [String] {
        var hints: [String] = []
        if let imagePath { hints.append("'image-path': <\(Self.literal(imagePath))>") }
        if silent { hints.append("'suppress-sound': <true>") }
        return [Self.literal(appName), String(replacesID), "''", Self.literal(summary), Self.literal(Self.markupEscaped(body)),
                "['default', 'Open']", "{" + hints.joined(separator: ", ") + "}", String(expireTimeout ?? -1)]
    }

    /// `text` as a GVariant string literal: quoted, with the quote, the backslash and control
    /// characters escaped; a NUL, which a D-Bus string cannot hold, is left out.
    static func literal(_ text: String) -> String {
        var literal = "'"
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\0": continue
            case "\\": literal += "\\\\"
            case "'": literal += "\\'"
            case _ where scalar.value < 0x20 || scalar.value == 0x7f:
                let hex = String(scalar.value, radix: 16)
                literal += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: literal.unicodeScalars.append(scalar)
            }
        }
        return literal + "'"
    }

    /// `text` with `&`, `<` and `>` escaped: a service with body markup shows it as written.
    static func markupEscaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}
