/// A web page address read by PageScript's own strict URL parser, in the canonical form that
/// site matching compares.
///
/// `PageURL` follows the WHATWG URL Standard (what browsers do) wherever it decides which site a
/// URL is on: userinfo is not the host, `\` ends the host like `/`, tabs and newlines are removed,
/// percent-encoded hosts are decoded, shorthand IPv4 addresses are read by value. It refuses what it
/// cannot put in canonical form with certainty, so a doubtful URL matches no script. The fragment
/// never decides which match pattern applies; it is kept only for the rules the managers run on
/// the whole address (``href``): `@include` regular expressions, whose hosts are proven before they
/// are used, and exclusions, which can only narrow.
///
/// ```swift
/// let url = try PageURL("https://example.com@evil.com/")
/// url.host.description   // "evil.com"
/// ```
public struct PageURL: Hashable, Sendable, CustomStringConvertible {
    /// The scheme: http, https or file.
    public let scheme: URLScheme
    /// The canonical host; `.empty` for local files.
    public let host: URLHost
    /// The port written in the URL, `nil` when absent or equal to the scheme's default port.
    public let port: Int?
    /// The canonical path, always starting with `/`, percent-encoded as a browser does.
    public let path: String
    /// The query without its `?`, or `nil` when the URL has none.
    public let query: String?
    /// What a match pattern's path is compared with: the path, then `?` and the query if there is
    /// one. Kept rather than computed, since every pattern tried against the URL reads it.
    public let pathAndQuery: String
    /// The fragment without its `#`, percent-encoded as a browser does, or `nil` when there is none.
    public let fragment: String?

    /// Reads `text`; throws when it is not an http, https or file URL that can be read with certainty.
    public init(_ text: String) throws(URLParseError) {
        self = try Self.parse(text)
    }

    init(scheme: URLScheme, host: URLHost, port: Int?, path: String, query: String?, fragment: String? = nil) {
        self.scheme = scheme
        self.host = host
        self.port = port == scheme.defaultPort ? nil : port
        self.path = path
        self.query = query
        self.fragment = fragment
        pathAndQuery = query.map { path + "?" + $0 } ?? path
    }

    /// The port the browser connects to: the written port or the scheme's default; `nil` for files.
    public var effectivePort: Int? { port ?? scheme.defaultPort }

    /// The canonical URL without its fragment.
    public var description: String {
        let portText = port.map { ":\($0)" } ?? ""
        return "\(scheme)://\(host)\(portText)\(pathAndQuery)"
    }

    /// The canonical URL with its fragment, as a page's `location.href` reads (without any user
    /// name): what the managers run regular expressions and globs on.
    public var href: String {
        fragment.map { description + "#" + $0 } ?? description
    }
}
