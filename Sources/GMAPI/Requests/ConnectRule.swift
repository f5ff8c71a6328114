import UserScripts

/// One `@connect` line: a host `GM_xmlhttpRequest` may reach.
///
/// The forms the managers document:
/// - `*`: any host;
/// - `self`: the host of the page the script runs on;
/// - `localhost`: the machine itself: the name `localhost` (and names under it), every IPv4
///   address in `127.0.0.0/8` in any spelling (`127.1`, `0x7f.1`, `2130706433`), `[::1]` and
///   IPv4-mapped loopback (`[::ffff:127.0.0.1]`);
/// - a domain (`example.com`): that domain and every subdomain (`api.example.com`), never a
///   look-alike (`example.com.evil.test`, `evilexample.com`);
/// - an IP address (`192.0.2.7`, `::1` or `[::1]`): that address, compared by value.
///
/// Hosts are compared in canonical form (``URLHost``): lowercase, IDNA as Punycode, one trailing
/// dot dropped, IP addresses by value. `*.example.com` is read as `example.com`, and a URL
/// (`https://example.com/`) as its host, since scripts in the wild write both.
///
/// ```swift
/// let rule = try ConnectRule("example.com")
/// rule.allows(try PageURL("https://api.example.com/").host, pageHost: nil)   // true
/// ```
public enum ConnectRule: Hashable, Sendable, CustomStringConvertible {
    /// `*`.
    case anyHost
    /// `self`.
    case pageHost
    /// `localhost`.
    case localhost
    /// A domain and its subdomains, canonical (`example.com`).
    case domain(String)
    /// One IP address.
    case address(URLHost)

    /// Reads the value of a `@connect` line.
    public init(_ value: String) throws(ConnectRuleError) {
        let text = value.trimmingC0ControlsAndSpaces()
        switch text.lowercased() {
        case "": throw ConnectRuleError(value: value, reason: "it is empty")
        case "*": self = .anyHost; return
        case "self": self = .pageHost; return
        case "localhost": self = .localhost; return
        default: break
        }
        var hostText = text
        if hostText.contains("://") {
            let url: PageURL
            do {
                url = try PageURL(hostText)
            } catch {
                throw ConnectRuleError(value: value, reason: "it looks like a URL, but \(error)")
            }
            hostText = url.host.description
        }
        if hostText.hasPrefix("*.") { hostText.removeFirst(2) }
        if hostText.contains(":"), !hostText.hasPrefix("[") { hostText = "[" + hostText + "]" }
        if let forbidden = hostText.unicodeScalars.first(where: { "/\\?#@ ".unicodeScalars.contains($0) }) {
            throw ConnectRuleError(value: value, reason: "a host cannot contain `\(forbidden)`")
        }
        let host: URLHost
        do {
            host = try PageURL("http://" + hostText + "/").host
        } catch {
            throw ConnectRuleError(value: value, reason: "\(error)")
        }
        switch host {
        case .domain(let name) where name == "localhost": self = .localhost
        case .domain(let name): self = .domain(name)
        case .ipv4, .ipv6: self = .address(host)
        case .empty: throw ConnectRuleError(value: value, reason: "it names no host")
        }
    }

    /// Whether this rule lets a script reach `host` from a page on `pageHost`.
    public func allows(_ host: URLHost, pageHost: URLHost?) -> Bool {
        switch self {
        case .anyHost:
            return true
        case .pageHost:
            return pageHost.map { $0 != .empty && $0 == host } ?? false
        case .localhost:
            return host.isLoopback
        case .domain(let name):
            guard case .domain(let candidate) = host else { return false }
            return candidate == name || candidate.hasSuffix("." + name)
        case .address(let address):
            return address == host
        }
    }

    /// The rule as a `@connect` value.
    public var description: String {
        switch self {
        case .anyHost: "*"
        case .pageHost: "self"
        case .localhost: "localhost"
        case .domain(let name): name
        case .address(let host): host.connectText
        }
    }
}
