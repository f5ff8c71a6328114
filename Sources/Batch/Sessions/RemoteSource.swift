import Engines
import Foundation
import PageRuntime
import SystemSupport
import WebDriver

/// Sessions on a remote W3C endpoint (a Selenium Grid, a browser cloud, a driver started by
/// someone else): one session per slot, nothing started locally.
///
/// A full grid answers `POST /session` with `session not created`; that is
/// ``SessionSourceError/full(reason:)``, which the batch waits out with backoff. An endpoint that
/// stops answering is ``SessionSourceError/failed(reason:)``, waited for the same way once the
/// batch has had a session.
///
/// While no session is open, sessions are asked for one at a time: a driver that allows a single
/// session checks its limit only against sessions already made (WebKitWebDriver 2.50 grants
/// three requests that arrive together, and its three browsers then block each other), so the
/// first session must exist before the others are refused. Once one is open, requests go out
/// together, as a grid handles them best.
public final class RemoteSource: SessionSource {
    /// The endpoint's base URL.
    public let endpoint: URL
    /// The `browserName` asked for, if any.
    public let browserName: String?
    public let engineLabel: String

    private let client: WebDriverClient
    private let sessionRequestTimeout: Double
    private let settings: BrowserSettings
    private let gate = CreationGate()

    /// - Parameters:
    ///   - endpoint: The endpoint, e.g. `http://grid.example:4444/wd/hub`.
    ///   - browserName: The `browserName` capability to ask for.
    ///   - capabilities: More capabilities for `alwaysMatch` (a cloud's credentials, a node's
    ///     browser options), merged into PageScript's own (``Engines/BrowserSettings/mergedCapabilities(_:engine:browserName:)``).
    ///   - settings: What the user asks of every browser (``Engines/BrowserSettings``), with
    ///     `capabilities` added to its own.
    ///   - sessionRequestTimeout: How long one `POST /session` may take, in seconds (a grid may
    ///     hold the request while it starts a browser or waits for a slot).
    public init(endpoint: URL, browserName: String?, capabilities: [(key: String, value: JSONValue)] = [], settings: BrowserSettings = BrowserSettings(),
                sessionRequestTimeout: Double = 60) {
        self.endpoint = endpoint
        self.browserName = browserName
        self.sessionRequestTimeout = sessionRequestTimeout
        var settings = settings
        settings.capabilities += capabilities
        self.settings = settings
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
        let own = SessionCapabilities.adding(scriptTimeout: scriptTimeout, pageLoadTimeout: pageLoadTimeout,
                                             to: BrowserEngine.remoteCapabilities(browserName: browserName))
        let capabilities = settings.mergedCapabilities(own, engine: nil, browserName: browserName)
        await deleteUndeleted()
        let alone = await gate.beginCreation()
        let session: WebDriverSession
        do {
            session = try await client.newSession(capabilities: capabilities, timeout: sessionRequestTimeout)
            await gate.endCreation(alone: alone, opened: true)
        } catch {
            await gate.endCreation(alone: alone, opened: false)
            switch error {
            case .protocolError(code: .sessionNotCreated, let message, _):
                // A browser that dies as it starts will do so again: no use waiting for a slot.
                let refusal = BrowserEngine.remoteRefusal(error)
                if refusal.hasPrefix("the endpoint's browser exited") { throw .fatal(reason: "\(endpoint.absoluteString): \(refusal)") }
                throw .full(reason: "\(endpoint.absoluteString) has no free session (session not created: \(message))")
            case .unreachable, .requestTimedOut, .malformedReply:
                throw .failed(reason: error.description)
            case .protocolError, .unknownProtocolError:
                throw .fatal(reason: "\(endpoint.absoluteString) refused a session: \(error)")
            }
        }
        let granted = session.capabilities["browserName"]?.stringValue
        let opened = OpenedSession(session: session, slot: slot, engine: granted.flatMap { $0.isEmpty ? nil : $0 } ?? engineLabel)
        do throws(BrowserSettingsProblem) {
            try await settings.apply(to: session, timeout: sessionRequestTimeout)
        } catch {
            await retire(opened)
            throw .fatal(reason: error.description)
        }
        return opened
    }

    public func retire(_ session: OpenedSession) async {
        // A driver stuck in a page that never returns (chromedriver) holds the deletion back: its
        // browser, when it is on this machine, is closed through its DevTools, and then the
        // session can go.
        if await delete(sessionID: session.session.id) {
            await gate.closed()
        } else if await session.session.closeStuckChromium(), await delete(sessionID: session.session.id, timeout: 15) {
            await gate.closed()
        } else {
            await gate.remember(undeleted: session.session.id)
        }
    }

    /// Sends `DELETE /session/{id}`; returns whether the session is gone.
    private func delete(sessionID: String, timeout: Double = 3) async -> Bool {
        do {
            _ = try await client.send(.DELETE, path: "/session/\(sessionID)", body: nil, command: "delete session", timeout: timeout)
            return true
        } catch {
            switch error {
            case .protocolError(code: .invalidSessionID, _, _): return true
            default: return false
            }
        }
    }

    /// Tries again to delete the sessions whose deletion failed (a browser busy in a page that
    /// never returns): on a grid, each one holds a slot until it is gone.
    private func deleteUndeleted() async {
        for id in await gate.takeUndeleted() {
            if await delete(sessionID: id) {
                await gate.closed()
            } else {
                await gate.remember(undeleted: id)
            }
        }
    }

    public func shutdown() async {
        await deleteUndeleted()
        await client.shutdown()
    }

    public func browserProcesses() -> [SlotProcess] {
        []
    }
}

/// Lets one session request at a time through while no session is open, and every request once
/// one is.
private actor CreationGate {
    private var open = 0
    private var creatingAlone = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    /// Waits for its turn; returns whether this request goes alone (and must say so at the end).
    func beginCreation() async -> Bool {
        while true {
            if open > 0 { return false }
            if !creatingAlone {
                creatingAlone = true
                return true
            }
            await withCheckedContinuation { waiters.append($0) }
        }
    }

    /// Notes how a request ended and lets the next ones try.
    func endCreation(alone: Bool, opened: Bool) {
        if opened { open += 1 }
        guard alone else { return }
        creatingAlone = false
        let waiting = waiters
        waiters.removeAll()
        waiting.forEach { $0.resume() }
    }

    private var undeleted: [String] = []

    /// Notes a session closed.
    func closed() {
        open = max(0, open - 1)
    }

    /// Keeps the ID of a session that could not be deleted, to try again later.
    func remember(undeleted id: String) {
        undeleted.append(id)
    }

    /// The sessions that could not be deleted, forgotten here.
    func takeUndeleted() -> [String] {
        defer { undeleted.removeAll() }
        return undeleted
    }
}
