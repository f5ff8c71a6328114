import Foundation

/// Where a browser's DevTools endpoint is.
///
/// ```swift
/// // chromedriver's reply: capabilities["goog:chromeOptions"]["debuggerAddress"]
/// let endpoint = try DevToolsEndpoint(parsing: "localhost:44663")
/// let browser = try await DevToolsConnection.connect(to: endpoint)
/// ```
public enum DevToolsEndpoint: Sendable, Equatable, CustomStringConvertible {
    /// A DevTools HTTP server (`--remote-debugging-port`): the browser's WebSocket URL is asked
    /// for at `GET /json/version`.
    case http(host: String, port: Int)
    /// A WebSocket URL to connect to directly, e.g. the `ws://…/devtools/browser/<id>` that
    /// Chromium prints as `DevTools listening on …`.
    case webSocket(URL)

    /// Reads `HOST:PORT` (chromedriver's `debuggerAddress`, `browse --attach`), an
    /// `http://HOST:PORT` URL, or a `ws://` URL.
    ///
    /// - Throws: ``DevToolsError/unreachable(endpoint:reason:)`` naming what was wrong.
    public init(parsing text: String) throws(DevToolsError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let lowered = trimmed.lowercased()
        if lowered.hasPrefix("ws://") {
            guard let url = URL(string: trimmed), url.host?.isEmpty == false else {
                throw .unreachable(endpoint: text, reason: "not a valid ws:// URL")
            }
            self = .webSocket(url)
            return
        }
        let address: Substring
        if lowered.hasPrefix("http://") {
            address = trimmed.dropFirst("http://".count).prefix { $0 != "/" }
        } else if lowered.contains("://") {
            throw .unreachable(endpoint: text, reason: "expected HOST:PORT, http://HOST:PORT or ws://… (wss and https are not supported)")
        } else {
            address = Substring(trimmed)
        }
        guard let colon = address.lastIndex(of: ":"),
              let port = Int(address[address.index(after: colon)...]), (1...65535).contains(port) else {
            throw .unreachable(endpoint: text, reason: "expected HOST:PORT with a port from 1 to 65535")
        }
        var host = String(address[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { throw .unreachable(endpoint: text, reason: "no host before the port") }
        self = .http(host: host, port: port)
    }

    public var description: String {
        switch self {
        case let .http(host, port): "http://\(host.contains(":") ? "[\(host)]" : host):\(port)"
        case let .webSocket(url): url.absoluteString
        }
    }
}
