import Foundation
import SystemSupport

/// What the user asks of every page's browser beyond where it runs: more capabilities for the
/// new-session request (`--capabilities`), the `User-Agent` (`--user-agent`), extra request
/// headers (`--header`), cookies (`--cookie`) and a proxy (`--proxy`). `run` and a batch take
/// them alike, on a local engine (``LaunchOptions/settings``) or a remote endpoint.
///
/// ```swift
/// var settings = BrowserSettings()
/// settings.userAgent = "PageScript-Check/1"
/// settings.headers = [try BrowserSettings.Header(parsing: "X-Team: search")]
/// settings.proxy = try BrowserSettings.Proxy(parsing: "http://127.0.0.1:3128")
/// if let problem = settings.problem(engine: .webkit, browserName: nil) { print(problem) }
/// ```
public struct BrowserSettings: Sendable, Hashable {
    /// More capabilities for every new session, as the user gave them: a JSON object merged into
    /// PageScript's own (``mergedCapabilities(_:engine:)``).
    public var capabilities: [(key: String, value: JSONValue)] = []
    /// The `User-Agent` pages get and send; `nil` for the browser's own.
    public var userAgent: String?
    /// Request headers added to every request of the session's window (Chromium) or of the session (Firefox).
    public var headers: [Header] = []
    /// Cookies set in the browser before its first page, each for its own domain (Chromium, Firefox).
    public var cookies: [Cookie] = []
    /// The proxy every request goes through; `nil` for none.
    public var proxy: Proxy?

    public init() {}

    /// Whether anything is asked that a new session must be told after it opens (``apply(to:timeout:)``).
    public var needsSessionCommands: Bool {
        !headers.isEmpty || !cookies.isEmpty
    }

    public static func == (lhs: BrowserSettings, rhs: BrowserSettings) -> Bool {
        JSONValue.object(lhs.capabilities) == JSONValue.object(rhs.capabilities) && lhs.userAgent == rhs.userAgent
            && lhs.headers == rhs.headers && lhs.cookies == rhs.cookies && lhs.proxy == rhs.proxy
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(JSONValue.object(capabilities))
        hasher.combine(userAgent)
        hasher.combine(headers)
        hasher.combine(cookies)
        hasher.combine(proxy)
    }

    /// `--capabilities`: a JSON object, parsed, or why it is not one.
    public static func capabilities(parsing text: String) throws(BrowserSettingsProblem) -> [(key: String, value: JSONValue)] {
        guard case let .object(members)? = try? JSONValue(parsing: text) else {
            throw BrowserSettingsProblem("--capabilities takes a JSON object, such as '{\"goog:chromeOptions\":{\"args\":[\"--no-sandbox\"]}}'; got '\(text)'")
        }
        return members
    }

    /// A request header, `NAME: VALUE`.
    public struct Header: Sendable, Hashable {
        /// The field's name, as given.
        public let name: String
        /// The field's value, without the spaces around it.
        public let value: String

        /// `NAME: VALUE` (or `NAME:VALUE`): a name of token characters and a value without line
        /// breaks or other control characters.
        public init(parsing text: String) throws(BrowserSettingsProblem) {
            guard let colon = text.firstIndex(of: ":") else {
                throw BrowserSettingsProblem("--header takes NAME:VALUE, such as 'X-Team: search'; got '\(text)'")
            }
            let name = String(text[..<colon])
            let value = text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty, name.unicodeScalars.allSatisfy(Self.isTokenCharacter) else {
                throw BrowserSettingsProblem("--header '\(text)': '\(name)' is not a header name (letters, digits and !#$%&'*+-.^_`|~ only)")
            }
            guard !value.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\t" || $0.value == 0x7F }) else {
                throw BrowserSettingsProblem("--header \(name): the value holds a line break or another control character")
            }
            self.name = name
            self.value = value
        }

        static func isTokenCharacter(_ scalar: Unicode.Scalar) -> Bool {
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "!#$%&'*+-.^_`|~".unicodeScalars.contains(scalar))
        }
    }

    /// A cookie, `NAME=VALUE; Domain=HOST[; Path=PATH]`, as a `Set-Cookie` header gives one: it
    /// goes with requests to `HOST` (and its subdomains) only, so that cookies meant for one site
    /// never reach the others of a batch.
    public struct Cookie: Sendable, Hashable {
        /// The cookie's name.
        public let name: String
        /// The cookie's value.
        public let value: String
        /// The host it goes to, with its subdomains (`Domain=`, without a leading dot).
        public let domain: String
        /// The path it goes to (`Path=`; `/` when not given).
        public let path: String

        public init(parsing text: String) throws(BrowserSettingsProblem) {
            let parts = text.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let pair = parts.first, let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                throw BrowserSettingsProblem("--cookie takes 'NAME=VALUE; Domain=HOST', such as 'session=abc; Domain=example.com'; got '\(text)'")
            }
            let name = String(pair[..<equals])
            let value = String(pair[pair.index(after: equals)...])
            guard name.unicodeScalars.allSatisfy(Header.isTokenCharacter),
                  !value.unicodeScalars.contains(where: { $0.value < 0x21 || $0.value == 0x7F || $0 == ";" || $0 == "," || $0 == "\\" }) else {
                throw BrowserSettingsProblem("--cookie '\(text)': the name must be a token and the value must hold no spaces, commas, semicolons or control characters")
            }
            var domain: String?
            var path = "/"
            for attribute in parts.dropFirst() where !attribute.isEmpty {
                let (key, given) = attribute.firstIndex(of: "=").map { (attribute[..<$0].lowercased(), String(attribute[attribute.index(after: $0)...])) }
                    ?? (attribute.lowercased(), "")
                switch key {
                case "domain": domain = given.hasPrefix(".") ? String(given.dropFirst()) : given
                case "path": path = given
                default:
                    throw BrowserSettingsProblem("--cookie '\(text)': '\(attribute)' is not an attribute PageScript sets; give Domain=HOST and, if needed, Path=/PATH")
                }
            }
            guard let domain, !domain.isEmpty, !domain.contains(where: { $0.isWhitespace || $0 == "/" || $0 == ":" }) else {
                throw BrowserSettingsProblem("--cookie '\(text)' names no site: add '; Domain=HOST' (the host it is for, and its subdomains), so that it never goes to the other sites a page or a batch visits")
            }
            guard path.hasPrefix("/") else { throw BrowserSettingsProblem("--cookie '\(text)': Path must begin with '/'") }
            self.name = name
            self.value = value
            self.domain = domain
            self.path = path
        }
    }

    /// A proxy: `http://HOST:PORT` (for http and https pages) or `socks5://HOST:PORT`.
    public struct Proxy: Sendable, Hashable {
        /// How requests reach the proxy.
        public enum Kind: String, Sendable, Hashable {
            /// An HTTP proxy, for http and https pages (`CONNECT` for https).
            case http
            /// A SOCKS 5 proxy.
            case socks5
        }

        /// How requests reach the proxy.
        public let kind: Kind
        /// `HOST:PORT`.
        public let address: String

        public init(parsing text: String) throws(BrowserSettingsProblem) {
            let problem = BrowserSettingsProblem("--proxy takes http://HOST:PORT or socks5://HOST:PORT; got '\(text)'")
            guard let url = URL(string: text), let scheme = url.scheme.flatMap({ Kind(rawValue: $0.lowercased()) }),
                  let host = url.host, !host.isEmpty, let port = url.port, (1...65535).contains(port),
                  url.path.isEmpty || url.path == "/", url.query == nil, url.user == nil else { throw problem }
            kind = scheme
            address = "\(host.contains(":") ? "[\(host)]" : host):\(port)"
        }

        /// The W3C `proxy` capability.
        var capability: JSONValue {
            switch kind {
            case .http: ["proxyType": "manual", "httpProxy": .string(address), "sslProxy": .string(address)]
            case .socks5: ["proxyType": "manual", "socksProxy": .string(address), "socksVersion": 5]
            }
        }
    }
}

/// A browser setting PageScript cannot take or give: the message says which and why.
public struct BrowserSettingsProblem: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
