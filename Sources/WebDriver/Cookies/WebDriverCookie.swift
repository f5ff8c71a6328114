import SystemSupport

/// A cookie as classic WebDriver's cookie commands give and take it (W3C WebDriver, "Cookies"):
/// `expiry` in whole seconds since the Unix epoch, `nil` for a session cookie.
///
/// ```swift
/// let cookie = WebDriverCookie(name: "theme", value: "dark", path: "/", secure: false, httpOnly: false)
/// try await session.addCookie(cookie)
/// ```
public struct WebDriverCookie: Sendable, Hashable {
    public var name: String
    public var value: String
    /// The cookie's domain as the browser keeps it (a leading dot, on some engines, for one that
    /// also goes to subdomains); `nil` when adding: the current document's host, host-only.
    public var domain: String?
    public var path: String?
    public var secure: Bool?
    public var httpOnly: Bool?
    /// `Strict`, `Lax` or `None`.
    public var sameSite: String?
    public var expiry: Int64?

    public init(name: String, value: String, domain: String? = nil, path: String? = nil, secure: Bool? = nil,
                httpOnly: Bool? = nil, sameSite: String? = nil, expiry: Int64? = nil) {
        self.name = name
        self.value = value
        self.domain = domain
        self.path = path
        self.secure = secure
        self.httpOnly = httpOnly
        self.sameSite = sameSite
        self.expiry = expiry
    }

    /// A cookie of a Get All Cookies reply; `nil` for an entry without a name or value.
    public init?(json: JSONValue) {
        guard let name = json["name"]?.stringValue, let value = json["value"]?.stringValue else { return nil }
        self.init(name: name, value: value, domain: json["domain"]?.stringValue, path: json["path"]?.stringValue,
                  secure: json["secure"]?.boolValue, httpOnly: json["httpOnly"]?.boolValue, sameSite: json["sameSite"]?.stringValue,
                  expiry: json["expiry"]?.doubleValue.map { Int64($0) })
    }

    /// The cookie as Add Cookie takes it: only the members that are set.
    public var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [("name", .string(name)), ("value", .string(value))]
        if let domain { members.append(("domain", .string(domain))) }
        if let path { members.append(("path", .string(path))) }
        if let secure { members.append(("secure", .bool(secure))) }
        if let httpOnly { members.append(("httpOnly", .bool(httpOnly))) }
        if let sameSite { members.append(("sameSite", .string(sameSite))) }
        if let expiry { members.append(("expiry", .integer(expiry))) }
        return .object(members)
    }
}
