import SystemSupport
import UserScripts

/// A cookie as `GM_cookie.list` hands it to a script, with Tampermonkey's members: `domain`,
/// `hostOnly`, `httpOnly`, `name`, `path`, `sameSite`, `secure`, `session`, `value`, and
/// `expirationDate` (seconds since the Unix epoch) for one that is not a session cookie.
///
/// ```swift
/// let cookie = GMCookie(name: "theme", value: "dark", domain: "example.com", hostOnly: true, path: "/")
/// cookie.json["session"]   // true
/// ```
public struct GMCookie: Sendable, Hashable {
    public var name: String
    public var value: String
    /// The host (for a host-only cookie) or the domain it goes to with its subdomains, without a
    /// leading dot.
    public var domain: String
    /// Whether the cookie goes to ``domain`` alone, not to its subdomains.
    public var hostOnly: Bool
    public var path: String
    public var secure: Bool
    public var httpOnly: Bool
    /// `no_restriction`, `lax`, `strict` or `unspecified`, as the managers name them.
    public var sameSite: String
    public var expirationDate: Double?

    public init(name: String, value: String, domain: String, hostOnly: Bool, path: String, secure: Bool = false,
                httpOnly: Bool = false, sameSite: String = "unspecified", expirationDate: Double? = nil) {
        self.name = name
        self.value = value
        self.domain = domain
        self.hostOnly = hostOnly
        self.path = path
        self.secure = secure
        self.httpOnly = httpOnly
        self.sameSite = sameSite
        self.expirationDate = expirationDate
    }

    /// Whether the cookie ends with its browsing session (it has no expiration date).
    public var session: Bool { expirationDate == nil }

    /// The managers' name of a `SameSite` attribute as browsers report it (`Strict`, `Lax`,
    /// `None`, or nothing).
    public static func sameSiteName(_ attribute: String?) -> String {
        switch attribute?.lowercased() {
        case "strict": "strict"
        case "lax": "lax"
        case "none": "no_restriction"
        default: "unspecified"
        }
    }

    /// The attribute a browser takes for a managers' `sameSite` name; `nil` for `unspecified`.
    public static func sameSiteAttribute(_ name: String?) -> String? {
        switch name?.lowercased() {
        case "strict": "Strict"
        case "lax": "Lax"
        case "no_restriction", "none": "None"
        default: nil
        }
    }

    /// The object the script gets.
    public var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("domain", .string(domain)), ("hostOnly", .bool(hostOnly)), ("httpOnly", .bool(httpOnly)), ("name", .string(name)),
            ("path", .string(path)), ("sameSite", .string(sameSite)), ("secure", .bool(secure)), ("session", .bool(session)),
            ("value", .string(value)),
        ]
        if let expirationDate { members.append(("expirationDate", .number(expirationDate))) }
        return .object(members)
    }

    /// Whether a browser sends this cookie to `url` (RFC 6265, 5.4): its domain matches the
    /// host, its path the URL's path, and a secure cookie goes only over https.
    public func isSent(to url: PageURL) -> Bool {
        let host = url.host.description
        guard hostOnly ? host == domain : Self.domain(host, isWithin: domain) else { return false }
        if secure, url.scheme != .https { return false }
        return Self.path(url.path, isWithin: path)
    }

    /// RFC 6265's domain-match: `host` is `domain` or a name below it (never for an IP address).
    public static func domain(_ host: String, isWithin domain: String) -> Bool {
        let host = host.lowercased()
        let domain = domain.lowercased()
        if host == domain { return true }
        guard host.hasSuffix("." + domain), !host.hasPrefix("[") else { return false }
        return !host.split(separator: ".").allSatisfy { $0.allSatisfy(\.isNumber) }
    }

    /// RFC 6265's path-match.
    public static func path(_ requestPath: String, isWithin cookiePath: String) -> Bool {
        if requestPath == cookiePath { return true }
        guard requestPath.hasPrefix(cookiePath) else { return false }
        return cookiePath.hasSuffix("/") || requestPath.dropFirst(cookiePath.count).first == "/"
    }
}
