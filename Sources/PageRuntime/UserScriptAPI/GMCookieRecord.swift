import GMAPI
import SystemSupport

/// One `GM_cookie` call in a run's result: what was asked, of which address, and how it went.
///
/// In `--json`: `{"action","url","name"?,"listed"?}` or `{"action","url","name"?,"error"}`.
public struct GMCookieRecord: Sendable, Hashable {
    /// `list`, `set` or `delete`.
    public let action: String
    public let url: String
    public let name: String?
    /// How many cookies a list gave the script.
    public let listed: Int?
    /// Why the call did nothing (the text the script's callback got).
    public let error: String?

    init(call: GMCookieCall, listed: Int?) {
        action = call.action.rawValue
        url = call.url.description
        name = call.name
        self.listed = listed
        error = nil
    }

    init(action: String, url: String, name: String?, error: String) {
        self.action = action
        self.url = url
        self.name = name
        listed = nil
        self.error = error
    }

    /// The record as a report line: `cookie: list http://example.com/ (2 cookies)`,
    /// `cookie: set theme at http://example.com/`, or the call and its error.
    public var line: String {
        let what = "cookie: \(action)" + (name.map { " \($0)" } ?? "") + (action == "list" ? " " : " at ") + url
        if let error { return what + ": \(error)" }
        if let listed { return what + " (\(listed) \(listed == 1 ? "cookie" : "cookies"))" }
        return what
    }

    public var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [("action", .string(action)), ("url", .string(url))]
        if let name { members.append(("name", .string(name))) }
        if let listed { members.append(("listed", .integer(Int64(listed)))) }
        if let error { members.append(("error", .string(error))) }
        return .object(members)
    }
}
