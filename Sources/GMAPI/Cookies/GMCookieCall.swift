import SystemSupport
import UserScripts

/// One `GM_cookie.list`, `GM_cookie.set` or `GM_cookie.delete` (or `GM.cookie.*`) as the page half
/// of the API sends it: the action and Tampermonkey's details, `url` filled in with the
/// document's address when the script named none.
///
/// ```swift
/// let call = try GMCookieCall(json: ["action": "list", "details": ["url": "https://example.com/", "name": "theme"]])
/// let access = try call.access(for: script, policy: policy, pageURL: page)
/// let listed = call.selecting(cookies, access: access)
/// ```
public struct GMCookieCall: Sendable, Hashable {
    public enum Action: String, Sendable, Hashable {
        case list, set, delete
    }

    public let action: Action
    /// The address whose cookies are meant (the document's when the script named none).
    public let url: PageURL
    /// `list`: only cookies whose domain is this one or below it; `set`: the domain the cookie
    /// goes to with its subdomains (none: host-only).
    public let domain: String?
    public let name: String?
    public let path: String?
    /// `set` only.
    public let value: String?
    public let secure: Bool?
    public let httpOnly: Bool?
    /// Seconds since the Unix epoch; none: a session cookie.
    public let expirationDate: Double?
    /// The managers' `sameSite` name (`no_restriction`, `lax`, `strict`, `unspecified`).
    public let sameSite: String?

    /// Reads `{"action", "details": {...}}`.
    ///
    /// - Throws: ``GMCookieError/malformed(_:)`` for an unknown action, a missing or unreadable
    ///   `url`, or a `set` or `delete` without a `name`.
    public init(json: JSONValue) throws(GMCookieError) {
        guard let actionName = json["action"]?.stringValue, let action = Action(rawValue: actionName) else {
            throw .malformed("the action must be list, set or delete")
        }
        let details = json["details"] ?? [:]
        guard let urlText = details["url"]?.stringValue else { throw .malformed("it names no url") }
        do {
            url = try PageURL(urlText)
        } catch {
            throw .malformed("the url \(urlText) cannot be read: \(error)")
        }
        guard url.scheme != .file else { throw .malformed("a file: address has no cookies") }
        self.action = action
        domain = details["domain"]?.stringValue.map { $0.hasPrefix(".") ? String($0.dropFirst()) : $0 }.map { $0.lowercased() }
        name = details["name"]?.stringValue
        path = details["path"]?.stringValue
        value = details["value"]?.stringValue
        secure = details["secure"]?.boolValue
        httpOnly = details["httpOnly"]?.boolValue
        expirationDate = details["expirationDate"]?.doubleValue
        sameSite = details["sameSite"]?.stringValue
        if action != .list, name == nil { throw .malformed("GM_cookie.\(action.rawValue) needs a name") }
        if let domain, !GMCookie.domain(url.host.description, isWithin: domain) {
            throw .malformed("the domain \(domain) is not \(url.host) or a domain above it")
        }
    }

    /// How far a script reaches into the cookies of ``url``.
    public enum Access: Sendable, Hashable {
        /// Every cookie, `httpOnly` ones included: the script's `@match` or `@include` lines name
        /// the address, or it is the document the script runs in.
        case all
        /// Only cookies without `httpOnly`: the address is reached through `@connect` alone, as
        /// a request the script makes would carry them.
        case scriptVisible
    }

    /// Whether `script` may reach the cookies of ``url``: those of the document it runs in (at
    /// `pageURL`), of the sites its `@match` and `@include` lines name (as Tampermonkey checks),
    /// and, without `httpOnly` ones, of the hosts `policy` (its `@connect` lines) allows.
    ///
    /// - Throws: ``GMCookieError/notAllowed(url:reason:)`` for any other address.
    public func access(for script: UserScript, policy: ConnectPolicy, pageURL: PageURL?) throws(GMCookieError) -> Access {
        if let pageURL, pageURL.host == url.host { return .all }
        let matcher = ScriptMatcher([(id: ScriptID("cookie-check"), rules: script.siteRules)])
        if !matcher.matches(url).isEmpty { return .all }
        if policy.rules.contains(where: { $0.allows(url.host, pageHost: pageURL?.host) }) { return .scriptVisible }
        throw .notAllowed(url: url.description, reason: "\(script.name) has no @match or @include for it and no @connect line allows \(url.host)")
    }

    /// The cookies the call lists out of `cookies` (those the browser keeps for ``url``): sent to
    /// the address, within ``domain``, named ``name``, on ``path``, and `httpOnly` ones only
    /// with ``Access/all``.
    public func selecting(_ cookies: [GMCookie], access: Access) -> [GMCookie] {
        cookies.filter { cookie in
            guard cookie.isSent(to: url) else { return false }
            if access == .scriptVisible, cookie.httpOnly { return false }
            if let domain, !GMCookie.domain(cookie.domain, isWithin: domain) { return false }
            if let name, cookie.name != name { return false }
            if let path, cookie.path != path { return false }
            return true
        }
    }

    /// The cookie a `set` makes: host-only unless a ``domain`` is given, on ``path`` or the
    /// URL's directory as a browser defaults it.
    public var cookieToSet: GMCookie {
        GMCookie(name: name ?? "", value: value ?? "", domain: domain ?? url.host.description, hostOnly: domain == nil,
                 path: path ?? Self.defaultPath(of: url.path), secure: secure ?? false, httpOnly: httpOnly ?? false,
                 sameSite: sameSite ?? "unspecified", expirationDate: expirationDate)
    }

    /// RFC 6265's default-path: the URL's path up to its last `/`, or `/`.
    static func defaultPath(of path: String) -> String {
        guard path.hasPrefix("/"), let last = path.lastIndex(of: "/"), last != path.startIndex else { return "/" }
        return String(path[..<last])
    }
}
