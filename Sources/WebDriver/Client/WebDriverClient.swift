import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import SystemSupport

/// A W3C WebDriver client over HTTP/1.1 with keep-alive: PageScript's own lean client on SwiftNIO
/// for `http://` endpoints (every local driver, most grids), AsyncHTTPClient for `https://` ones
/// (browser clouds). A user and password in the endpoint's URL
/// (`https://user:key@hub.example.com/wd/hub`) are sent as HTTP Basic authentication.
///
/// Every request has a timeout: a driver that never answers (WebKit without a display never
/// answers `POST /session`) surfaces as ``WebDriverError/requestTimedOut(command:seconds:)``.
///
/// ```swift
/// let client = WebDriverClient(endpoint: URL(string: "http://127.0.0.1:4444")!)
/// let session = try await client.newSession(capabilities: [:], timeout: 30)
/// defer { Task { await session.delete() } }
/// ```
public final class WebDriverClient: Sendable {
    /// The endpoint's base URL, for example `http://127.0.0.1:4444` or a grid's `.../wd/hub`.
    public let endpoint: URL
    /// The timeout of commands that do not name their own.
    public let defaultTimeout: Double

    private let transport: Transport

    private enum Transport: Sendable {
        case plain(KeepAliveHTTPClient, basePath: String)
        case general(HTTPClient)
    }

    private let authorization: String?

    /// Creates a client for `endpoint`.
    ///
    /// - Parameters:
    ///   - endpoint: The driver's base URL.
    ///   - connectTimeout: How long to wait for a TCP connection, in seconds.
    ///   - defaultTimeout: The timeout of commands that take none, in seconds.
    public init(endpoint: URL, connectTimeout: Double = 5, defaultTimeout: Double = 30) {
        self.endpoint = endpoint
        self.defaultTimeout = defaultTimeout
        let components = URLComponents(url: endpoint, resolvingAgainstBaseURL: false)
        if let user = components?.user {
            let credentials = user.removingPercentEncoding ?? user
            let password = components?.password.map { $0.removingPercentEncoding ?? $0 } ?? ""
            authorization = "Basic " + Data((credentials + ":" + password).utf8).base64EncodedString()
        } else {
            authorization = nil
        }
        if endpoint.scheme?.lowercased() == "http", let host = endpoint.host, !host.isEmpty {
            let path = endpoint.path.hasSuffix("/") ? String(endpoint.path.dropLast()) : endpoint.path
            transport = .plain(
                KeepAliveHTTPClient(host: host, port: endpoint.port ?? 80, connectTimeout: .milliseconds(Int64(connectTimeout * 1000))),
                basePath: path)
        } else {
            var configuration = HTTPClient.Configuration()
            configuration.timeout.connect = .milliseconds(Int64(connectTimeout * 1000))
            configuration.connectionPool = .init(idleTimeout: .seconds(60))
            configuration.decompression = .disabled
            configuration.httpVersion = .http1Only
            transport = .general(HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration))
        }
    }

    /// Releases the client's connections. Call once, when done with every session.
    public func shutdown() async {
        switch transport {
        case let .plain(client, _): client.closeIdleConnections()
        case let .general(http): try? await http.shutdown()
        }
    }

    /// `GET /status`: whether the endpoint can create a session now, and its message.
    public func status(timeout: Double = 2) async throws(WebDriverError) -> (ready: Bool, message: String) {
        let value = try await send(.GET, path: "/status", body: nil, command: "status", timeout: timeout)
        let ready: Bool
        if case .bool(let flag)? = value["ready"] { ready = flag } else { ready = false }
        return (ready, value["message"]?.stringValue ?? "")
    }

    /// `POST /session`: starts a browser session with the given capabilities (`alwaysMatch`).
    public func newSession(capabilities: JSONValue, timeout: Double) async throws(WebDriverError) -> WebDriverSession {
        let body: JSONValue = ["capabilities": ["alwaysMatch": capabilities]]
        let value = try await send(.POST, path: "/session", body: body, command: "new session", timeout: timeout)
        guard let id = value["sessionId"]?.stringValue, !id.isEmpty else {
            throw .malformedReply(command: "new session", reason: "no sessionId")
        }
        return WebDriverSession(id: id, capabilities: value["capabilities"] ?? .null, client: self)
    }

    /// Sends one command and returns the reply's `value`, or throws the protocol's error.
    public func send(
        _ method: HTTPMethodName,
        path: String,
        body: JSONValue?,
        command: String,
        timeout: Double? = nil
    ) async throws(WebDriverError) -> JSONValue {
        try await send(method, path: path, serializedBody: body?.serialized, command: command, timeout: timeout)
    }

    /// Sends one command whose body is already JSON text (for a large constant part serialised
    /// once), and returns the reply's `value`, or throws the protocol's error.
    public func send(
        _ method: HTTPMethodName,
        path: String,
        serializedBody body: String?,
        command: String,
        timeout: Double? = nil
    ) async throws(WebDriverError) -> JSONValue {
        let seconds = timeout ?? defaultTimeout
        let bytes: [UInt8]
        switch transport {
        case let .plain(client, basePath):
            bytes = try await sendPlain(client, method, path: basePath + path, body: body, command: command, seconds: seconds)
        case let .general(http):
            bytes = try await sendGeneral(http, method, path: path, body: body, command: command, seconds: seconds)
        }
        let reply: JSONValue
        do {
            reply = try JSONValue(parsing: bytes)
        } catch {
            throw .malformedReply(command: command, reason: error.description)
        }
        guard let value = reply["value"] else {
            throw .malformedReply(command: command, reason: "no 'value' member")
        }
        if let code = value["error"]?.stringValue {
            let message = value["message"]?.stringValue ?? ""
            guard let known = WebDriverErrorCode(rawValue: code) else {
                throw .unknownProtocolError(code: code, message: message)
            }
            throw .protocolError(code: known, message: message, stacktrace: value["stacktrace"]?.stringValue ?? "")
        }
        return value
    }

    private func sendPlain(
        _ client: KeepAliveHTTPClient, _ method: HTTPMethodName, path: String, body: String?, command: String, seconds: Double
    ) async throws(WebDriverError) -> [UInt8] {
        var head = HTTPRequestHead(version: .http1_1, method: method.nioMethod, uri: path)
        head.headers.add(name: "Accept", value: "application/json")
        if let authorization { head.headers.add(name: "Authorization", value: authorization) }
        if body != nil { head.headers.add(name: "Content-Type", value: "application/json; charset=utf-8") }
        do {
            let response = try await client.execute(head, body: body.map { ByteBuffer(string: $0) }, timeout: .nanoseconds(Int64(seconds * 1_000_000_000)))
            return Array(response.body.readableBytesView)
        } catch {
            switch error {
            case .timedOut, .cancelled: throw .requestTimedOut(command: command, seconds: seconds)
            case .connectTimedOut: throw .unreachable(endpoint: endpoint.absoluteString, reason: "connection timed out")
            case let .connectFailed(reason): throw .unreachable(endpoint: endpoint.absoluteString, reason: reason)
            case let .closed(_, reason): throw .unreachable(endpoint: endpoint.absoluteString, reason: reason)
            case .tooLarge: throw .malformedReply(command: command, reason: "a reply larger than 256 MB")
            }
        }
    }

    private func sendGeneral(
        _ http: HTTPClient, _ method: HTTPMethodName, path: String, body: String?, command: String, seconds: Double
    ) async throws(WebDriverError) -> [UInt8] {
        let url = endpoint.absoluteString.trimmingSuffix("/") + path
        var request = HTTPClientRequest(url: url)
        request.method = method.nioMethod
        request.headers.add(name: "Accept", value: "application/json")
        if let authorization { request.headers.add(name: "Authorization", value: authorization) }
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json; charset=utf-8")
            request.body = .bytes(ByteBuffer(string: body))
        }
        do {
            let response = try await http.execute(request, timeout: .milliseconds(Int64(seconds * 1000)))
            let buffer = try await response.body.collect(upTo: 256 * 1024 * 1024)
            return Array(buffer.readableBytesView)
        } catch let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout {
            throw .requestTimedOut(command: command, seconds: seconds)
        } catch let error as HTTPClientError where error == .connectTimeout {
            throw .unreachable(endpoint: endpoint.absoluteString, reason: "connection timed out")
        } catch {
            throw Self.classify(error, endpoint: endpoint, command: command, seconds: seconds)
        }
    }

    private static func classify(_ error: any Error, endpoint: URL, command: String, seconds: Double) -> WebDriverError {
        if let httpError = error as? HTTPClientError {
            if httpError == .deadlineExceeded || httpError == .readTimeout {
                return .requestTimedOut(command: command, seconds: seconds)
            }
            return .unreachable(endpoint: endpoint.absoluteString, reason: "\(httpError)")
        }
        if error is CancellationError {
            return .requestTimedOut(command: command, seconds: seconds)
        }
        return .unreachable(endpoint: endpoint.absoluteString, reason: "\(error)")
    }
}

extension String {
    func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
