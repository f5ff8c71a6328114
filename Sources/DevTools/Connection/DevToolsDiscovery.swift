import AsyncHTTPClient
import Foundation
import NIOCore
import SystemSupport

/// The DevTools HTTP server's discovery endpoints: `GET /json/version` and `GET /json/list`.
///
/// Chromium answers only requests whose `Host` is an IP address or `localhost`, which is what
/// these send.
///
/// ```swift
/// let version = try await DevToolsDiscovery.version(host: "127.0.0.1", port: 9222)
/// print(version.browser, version.webSocketDebuggerURL)
/// ```
public enum DevToolsDiscovery {
    /// What `GET /json/version` says about the browser.
    public struct BrowserVersion: Sendable, Equatable {
        /// The product and version, e.g. `Chrome/156.0.8078.79` (`HeadlessChrome/…` when headless).
        public let browser: String
        /// The DevTools Protocol's version, e.g. `1.3`.
        public let protocolVersion: String
        /// The browser's user agent.
        public let userAgent: String
        /// The V8 version.
        public let v8Version: String
        /// The browser target's WebSocket URL, to connect to.
        public let webSocketDebuggerURL: URL
    }

    /// `GET http://HOST:PORT/json/version`.
    ///
    /// - Throws: ``DevToolsError/unreachable(endpoint:reason:)`` when nothing answers, the answer
    ///   is not a DevTools server's, or it has no browser WebSocket URL.
    public static func version(host: String, port: Int, timeout: Double = 5) async throws(DevToolsError) -> BrowserVersion {
        let endpoint = DevToolsEndpoint.http(host: host, port: port).description
        let reply = try await get("/json/version", host: host, port: port, timeout: timeout)
        guard let text = reply["webSocketDebuggerUrl"]?.stringValue, let url = URL(string: text) else {
            throw .unreachable(endpoint: endpoint, reason: "/json/version has no webSocketDebuggerUrl")
        }
        return BrowserVersion(
            browser: reply["Browser"]?.stringValue ?? "", protocolVersion: reply["Protocol-Version"]?.stringValue ?? "",
            userAgent: reply["User-Agent"]?.stringValue ?? "", v8Version: reply["V8-Version"]?.stringValue ?? "",
            webSocketDebuggerURL: url)
    }

    /// `GET http://HOST:PORT/json/list`: the browser's targets (tabs first), as the HTTP server
    /// lists them.
    public static func targets(host: String, port: Int, timeout: Double = 5) async throws(DevToolsError) -> [TargetInfo] {
        let reply = try await get("/json/list", host: host, port: port, timeout: timeout)
        return (reply.arrayValue ?? []).compactMap { entry in
            guard let id = entry["id"]?.stringValue, let type = entry["type"]?.stringValue else { return nil }
            return TargetInfo(targetID: id, type: type, title: entry["title"]?.stringValue ?? "", url: entry["url"]?.stringValue ?? "")
        }
    }

    private static func get(_ path: String, host: String, port: Int, timeout: Double) async throws(DevToolsError) -> JSONValue {
        let endpoint = DevToolsEndpoint.http(host: host, port: port).description
        var request = HTTPClientRequest(url: endpoint + path)
        request.method = .GET
        let body: ByteBuffer
        do {
            let response = try await HTTPClient.shared.execute(request, timeout: .milliseconds(Int64(timeout * 1000)))
            body = try await response.body.collect(upTo: 16 * 1024 * 1024)
            guard response.status == .ok else {
                throw DevToolsError.unreachable(
                    endpoint: endpoint, reason: "\(path) answered HTTP \(response.status.code): \(String(buffer: body).prefix(300))")
            }
        } catch let error as DevToolsError {
            throw error
        } catch {
            throw .unreachable(endpoint: endpoint, reason: "\(error)")
        }
        do {
            return try JSONValue(parsing: Array(body.readableBytesView))
        } catch {
            throw .unreachable(endpoint: endpoint, reason: "\(path) is not JSON (\(error)); is this a DevTools port?")
        }
    }
}
