/// A compiled match pattern: which pages a script may run on.
///
/// The grammar is Chrome's and Firefox's match patterns, with ports:
/// `<all_urls>` or `scheme://host[:port]/path`, where the scheme is `*` (http or https), `http`,
/// `https` or `file`; the host is `*`, `*.` followed by a domain, a domain, an IPv4 address or a
/// bracketed IPv6 address; the port is a number or `*`; and the path starts with `/` and may contain
/// `*`, which matches any run of characters. Parsing checks and canonicalises the pattern once, so
/// matching a URL is cheap.
///
/// ```swift
/// let pattern = try MatchPattern("*://*.example.com/account/*")
/// pattern.matches(try PageURL("https://www.example.com/account/settings"))   // true
/// pattern.matches(try PageURL("https://example.com.evil.net/account/"))     // false
/// ```
public struct MatchPattern: Hashable, Sendable, CustomStringConvertible {
    /// Which schemes a pattern accepts.
    enum SchemeRule: Hashable, Sendable {
        /// `*`: http or https, never file.
        case httpOrHTTPS
        case exactly(URLScheme)
        /// `<all_urls>`: every scheme PageScript runs on, file included.
        case any

        func accepts(_ scheme: URLScheme) -> Bool {
            switch self {
            case .httpOrHTTPS: scheme != .file
            case .exactly(let expected): scheme == expected
            case .any: true
            }
        }
    }

    /// Which hosts a pattern accepts.
    enum HostRule: Hashable, Sendable {
        /// `*`: every host.
        case any
        /// One host (the empty host for files).
        case exactly(URLHost)
        /// `*.example.com`: the domain itself and every subdomain at any depth, never an IP address.
        case domainAndSubdomains(String)
    }

    /// The pattern as it was written.
    public let text: String
    let scheme: SchemeRule
    let host: HostRule
    /// The required port, or `nil` for any port.
    let port: Int?
    let path: PathGlob

    init(text: String, scheme: SchemeRule, host: HostRule, port: Int?, path: PathGlob) {
        self.text = text
        self.scheme = scheme
        self.host = host
        self.port = port
        self.path = path
    }

    /// `<all_urls>`: every http, https and file page.
    static func allURLs(text: String = "<all_urls>") -> MatchPattern {
        MatchPattern(text: text, scheme: .any, host: .any, port: nil, path: PathGlob("/*"))
    }

    /// Compiles `text`; throws with the reason and, where possible, a suggested fix.
    public init(_ text: String) throws(MatchPatternError) {
        self = try Self.parse(text, suggestingFixes: true)
    }

    /// Whether a page at `url` is covered by this pattern.
    public func matches(_ url: PageURL) -> Bool {
        guard hostAccepts(url.host) else { return false }
        var pathAndQuery = url.pathAndQuery
        return pathAndQuery.withUTF8 { matchesIgnoringHost(url, pathAndQuery: $0) }
    }

    /// Whether the pattern's host rule accepts `host`.
    func hostAccepts(_ candidate: URLHost) -> Bool {
        switch host {
        case .any:
            true
        case .exactly(let expected):
            candidate == expected
        case .domainAndSubdomains(let domain):
            if case .domain(let name) = candidate { Self.name(name, isWithin: domain) } else { false }
        }
    }

    /// Everything but the host: for ``ScriptMatcher``, which only tries a pattern on URLs whose host
    /// it already knows the pattern accepts, and reads the path's bytes once per URL. `path`
    /// replaces the pattern's own path glob (an exclusion compares a lowercased copy).
    func matchesIgnoringHost(_ url: PageURL, pathAndQuery: UnsafeBufferPointer<UInt8>, path: PathGlob? = nil) -> Bool {
        guard scheme.accepts(url.scheme) else { return false }
        if let port, url.effectivePort != port { return false }
        return (path ?? self.path).matches(bytes: pathAndQuery)
    }

    /// The pattern in canonical form (lowercase scheme and host, IDNA hosts in Punycode, canonical
    /// IP addresses, no `:*`), which is how two patterns are compared.
    public var description: String {
        let schemeText: String
        switch scheme {
        case .any: return "<all_urls>"
        case .httpOrHTTPS: schemeText = "*"
        case .exactly(let exact): schemeText = exact.rawValue
        }
        let hostText = switch host {
        case .any: "*"
        case .exactly(let exact): exact.description
        case .domainAndSubdomains(let domain): "*." + domain
        }
        let portText = port.map { ":\($0)" } ?? ""
        return "\(schemeText)://\(hostText)\(portText)\(path.text)"
    }

    /// Two patterns are equal when their canonical forms are, however they were written.
    public static func == (lhs: MatchPattern, rhs: MatchPattern) -> Bool {
        lhs.scheme == rhs.scheme && lhs.host == rhs.host && lhs.port == rhs.port && lhs.path.text == rhs.path.text
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(scheme)
        hasher.combine(host)
        hasher.combine(port)
        hasher.combine(path.text)
    }

    /// Whether `name` is `domain` or ends with `.domain`; `wwwexample.com` is not within `example.com`.
    static func name(_ name: String, isWithin domain: String) -> Bool {
        guard name.utf8.count >= domain.utf8.count else { return false }
        if name.utf8.count == domain.utf8.count { return name == domain }
        guard name.utf8.suffix(domain.utf8.count).elementsEqual(domain.utf8) else { return false }
        return name.utf8.dropLast(domain.utf8.count).last == UInt8(ascii: ".")
    }
}
