/// A site in the sense of PageScript's per-site features: one host and port.
///
/// A site script (``ScriptLibrary/saveForSite(url:code:runAt:basedOn:keepingPrevious:)``) and the per-site off
/// switch (``ScriptLibrary/setDisabled(_:id:on:)``) are keyed by it. The port is part of the
/// site: `localhost:3000` and `localhost:8080` are different applications, so a site with the
/// default ports covers http on 80 and https on 443 only. All local files are one site.
///
/// ```swift
/// let site = Site(url: try PageURL("https://example.com/a"))
/// site.description                   // "example.com"
/// site.matchPatterns.map(\.description)   // ["http://example.com:80/*", "https://example.com:443/*"]
/// ```
public struct Site: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The host; `.empty` for local files.
    public let host: URLHost
    /// The port, or `nil` for the default ports (80 for http, 443 for https).
    public let port: Int?

    /// The site of a page.
    public init(url: PageURL) {
        host = url.host
        port = url.scheme == .file ? nil : url.port
    }

    /// Reads a site as written by ``description``: `example.com`, `localhost:3000`, `[::1]:8080`,
    /// or `file://` for local files.
    public init(_ text: String) throws(URLParseError) {
        if text == "file://" {
            host = .empty
            port = nil
            return
        }
        var hostText = Substring(text)
        var portText: Substring?
        if let colon = text.lastIndex(of: ":"), !text.hasPrefix("[") || text[..<colon].hasSuffix("]") {
            hostText = text[..<colon]
            portText = text[text.index(after: colon)...]
        }
        let parsedHost = try URLHost.parse(hostText.utf8)
        guard parsedHost != .empty else { throw .invalidHost(text, reason: "it is empty") }
        host = parsedHost
        if let portText {
            guard let value = Int(portText), portText.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), (0...65535).contains(value) else {
                throw .invalidPort(String(portText))
            }
            port = value
        } else {
            port = nil
        }
    }

    /// `example.com`, `localhost:3000`, `[::1]:8080`, or `file://` for local files.
    public var description: String {
        if host == .empty { return "file://" }
        return host.description + (port.map { ":\($0)" } ?? "")
    }

    /// A readable name for a site script: the host and port, or "Local files".
    public var displayName: String {
        host == .empty ? "Local files" : description
    }

    /// The patterns that cover exactly this site's pages.
    ///
    /// With the default ports that is http on 80 and https on 443; with another port, both schemes
    /// on that port, except where the port is the other scheme's default (`https://host:80` is on
    /// site `host:80`, but `http://host:80` is on site `host`).
    public var matchPatterns: [MatchPattern] {
        let texts: [String]
        switch port {
        case _ where host == .empty: texts = ["file:///*"]
        case nil: texts = ["http://\(host):80/*", "https://\(host):443/*"]
        case 80?: texts = ["https://\(host):80/*"]
        case 443?: texts = ["http://\(host):443/*"]
        case let other?: texts = ["*://\(host):\(other)/*"]
        }
        return texts.compactMap { try? MatchPattern.parse($0, suggestingFixes: false) }
    }

    /// Whether `url` is on this site.
    public func contains(_ url: PageURL) -> Bool {
        Site(url: url) == self
    }

    /// Sites sort by their written form.
    public static func < (lhs: Site, rhs: Site) -> Bool {
        lhs.description < rhs.description
    }
}
