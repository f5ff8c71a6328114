import Foundation
import SystemSupport
import WebDriver

/// Sessions on a remote W3C endpoint (a Selenium Grid, a browser cloud, a driver started by
/// someone else): one session per slot, nothing started locally.
///
/// A full grid answers `POST /session` with `session not created`; that is
/// ``SessionSourceError/full(reason:)``, which the batch waits out with backoff. An endpoint that
/// stops answering is ``SessionSourceError/failed(reason:)``, waited for the same way once the
/// batch has had a session.
public final class RemoteSource: SessionSource {
    /// The endpoint's base URL.
    public let endpoint: URL
    /// The `browserName` asked for, if any.
    public let browserName: String?
    public let engineLabel: String

    private let client: WebDriverClient
    private let sessionRequestTimeout: Double
    private let extraCapabilities: [(key: String, value: JSONValue)]

    /// - Parameters:
    ///   - endpoint: The endpoint, e.g. `http://grid.example:4444/wd/hub`.
    ///   - browserName: The `browserName` capability to ask for.
    ///   - capabilities: More capabilities for `alwaysMatch` (a cloud's credentials, a node's
    ///     browser options); they win over PageScript's own.
    ///   - sessionRequestTimeout: How long one `POST /session` may take, in seconds (a grid may
    ///     hold the request while it starts a browser or waits for a slot).
    public init(endpoint: URL, browserName: String?, capabilities: [(key: String, value: JSONValue)] = [], sessionRequestTimeout: Double = 60) {
        self.endpoint = endpoint
        self.browserName = browserName
        self.sessionRequestTimeout = sessionRequestTimeout
        extraCapabilities = capabilities
        engineLabel = browserName ?? "remote"
        client = WebDriverClient(endpoint: endpoint, connectTimeout: 5)
    }

    public func prepare() async throws(SessionSourceError) {
        let port = UInt16(endpoint.port ?? (endpoint.scheme?.lowercased() == "https" ? 443 : 80))
        let host = endpoint.host ?? ""
        let reason = await BlockingWork.run { TCPProbe.failureReason(host: host, port: port, timeout: 5) }
        if let reason {
            throw .fatal(reason: EngineError.remoteUnavailable(endpoint: endpoint.absoluteString, reason: reason).description)
        }
    }

    public func openSession(slot: Int, scriptTimeout: Double, pageLoadTimeout: Double) async throws(SessionSourceError) -> OpenedSession {
        var members: [(key: String, value: JSONValue)] = []
        if let browserName { members.append((key: "browserName", value: .string(browserName))) }
        var capabilities = SessionCapabilities.adding(scriptTimeout: scriptTimeout, pageLoadTimeout: pageLoadTimeout, to: members)
        if case let .object(own) = capabilities, !extraCapabilities.isEmpty {
            let given = Set(extraCapabilities.map(\.key))
            capabilities = .object(own.filter { !given.contains($0.key) } + extraCapabilities)
        }
        do {
            let session = try await client.newSession(capabilities: capabilities, timeout: sessionRequestTimeout)
            let granted = session.capabilities["browserName"]?.stringValue
            return OpenedSession(session: session, slot: slot, engine: granted.flatMap { $0.isEmpty ? nil : $0 } ?? engineLabel)
        } catch {
            switch error {
            case .protocolError(code: .sessionNotCreated, let message, _):
                throw .full(reason: "\(endpoint.absoluteString) has no free session: \(message)")
            case .unreachable, .requestTimedOut, .malformedReply:
                throw .failed(reason: error.description)
            case .protocolError, .unknownProtocolError:
                throw .fatal(reason: "\(endpoint.absoluteString) refused a session: \(error)")
            }
        }
    }

    public func retire(_ session: OpenedSession) async {
        await session.session.delete(timeout: 3)
    }

    public func shutdown() async {
        await client.shutdown()
    }

    public func browserProcesses() -> [SlotProcess] {
        []
    }
}
