import Foundation
import NIOConcurrencyHelpers
import SystemSupport
import WebDriver

/// W3C Execute Script: the body as the script, the request as its one argument.
///
/// Three ways send the same call: the driver's `POST /execute/sync` (any endpoint); on a WebKit
/// session PageScript started with its automation channel, the commands the driver would send,
/// straight to the browser (``webKitAutomation(_:)``); on a session that offers WebDriver BiDi
/// (Firefox), `script.callFunction` on its BiDi connection (``bidi(_:)``). The last two fall back
/// to the driver's Execute Script whenever they decline (a dialog is open, which only the
/// driver's prompt handling answers; on BiDi, a navigation of the window is under way, which the
/// driver waits for). On BiDi, a large body goes through the driver too (``largestBiDiBody``).
///
/// When the page's `JSON.parse` (which WebKitWebDriver parses arguments with) loses the request,
/// the request is written into the body for the rest of the document.
final class ExecuteScriptTransport: PageTransport {
    /// The ways an Execute Script call goes.
    enum Way {
        /// The driver's `POST /execute/sync`.
        case driver
        /// WebKit's automation channel, past the driver, with the driver's way as fallback.
        case webKitAutomation
        /// WebDriver BiDi's `script.callFunction` on the session's BiDi connection, with the
        /// driver's way as fallback.
        case bidi
    }

    private struct State {
        /// Whether requests are written into the body (the page's `JSON.parse` loses them).
        var requestInBody = false
        /// The last body sent, and its JSON string literal.
        var lastSerializedBody: (body: String, serialized: String)?
        /// The last userscript run's body, the sealed part of its request, and the two written
        /// into one text (``ScriptBody/embedding(sealed:in:entry:)``).
        var lastSealedScript: (body: String, sealed: JSONValue, script: String)?
    }

    let session: WebDriverSession
    let way: Way
    private let state = NIOLockedValueBox(State())

    private init(session: WebDriverSession, way: Way) {
        self.session = session
        self.way = way
    }

    /// Execute Script through the driver.
    static func driver(_ session: WebDriverSession) -> ExecuteScriptTransport {
        ExecuteScriptTransport(session: session, way: .driver)
    }

    /// Execute Script through WebKit's automation channel, past the driver, on a session that
    /// ``WebDriver/WebDriverSession/executesScriptsDirectly``.
    static func webKitAutomation(_ session: WebDriverSession) -> ExecuteScriptTransport {
        ExecuteScriptTransport(session: session, way: .webKitAutomation)
    }

    /// The largest body, as a JSON string literal in UTF-8, sent as BiDi's `script.callFunction`;
    /// a larger one goes through the driver's Execute Script. Firefox compiles a large function
    /// given to `script.callFunction` several times slower than the same function given to
    /// geckodriver, while a small call is faster over BiDi: the runtime's installation, with its
    /// many functions, and the GM API's page half are over this size; a run's call in a document
    /// that has them is far under it.
    static let largestBiDiBody = 32 * 1024

    /// Execute Script through WebDriver BiDi, on a session that
    /// ``WebDriver/WebDriverSession/offersBiDi``.
    static func bidi(_ session: WebDriverSession) -> ExecuteScriptTransport {
        ExecuteScriptTransport(session: session, way: .bidi)
    }

    var followsDriverScriptTimeout: Bool { true }
    var sendsDevToolsCommands: Bool { false }

    func documentChanged() {
        state.withLockedValue { $0.requestInBody = false }
    }

    func retryAfterInterference() -> Bool { false }

    /// chromedriver compiles each call's text with the page's own `Function` (a page that wraps
    /// it receives every script a Selenium client sends, too), so on Chromium reached this way a
    /// call's values, files and responses are within the page's reach. The WebKit driver
    /// compiles with its own evaluator.
    var exposesCallsToPage: String? {
        let browser = session.capabilities["browserName"]?.stringValue?.lowercased() ?? ""
        guard session.capabilities["goog:chromeOptions"] != nil || ["chrome", "chromium", "chrome-headless-shell", "msedge", "microsoftedge"].contains(browser)
        else { return nil }
        return "this endpoint passes no DevTools commands on (goog/cdp/execute), so chromedriver compiles each call into the page "
            + "with the page's own Function: a page that replaced it can read what this script's calls carry (its values, files and "
            + "responses); use an endpoint that passes chromedriver's commands on, such as a local chromedriver"
    }

    func run(_ code: String, timeout: Double) async throws(WebDriverError) -> JSONValue {
        try await send(JSONValue.string(code).serialized, arguments: [], timeout: timeout)
    }

    func call(_ body: String, entry: RuntimeEntry, request: JSONValue, timeout: Double,
              confidential: Bool) async throws(InjectionError) -> TransportReply {
        let inBody = state.withLockedValue { $0.requestInBody }
        let script: String
        let arguments: [JSONValue]
        if inBody {
            script = ScriptBody.embedding(request, in: body, entry: entry)
            arguments = []
        } else if confidential {
            let parts = RuntimeRequest.sealing(request)
            script = sealedScript(body, sealed: parts.sealed, entry: entry)
            arguments = [.string(parts.open.serialized)]
        } else {
            script = body
            arguments = [.string(request.serialized)]
        }
        let value: JSONValue
        do {
            value = try await send(serializedBody(script), arguments: arguments, timeout: timeout)
        } catch {
            switch error {
            case let .protocolError(code: .javascriptError, message, _) where Self.isDocumentUnloaded(message):
                // geckodriver's word for a call whose document went away while it ran.
                return TransportReply(.interrupted(SyntaxErrorLocator.engineMessage(message)))
            case let .protocolError(code: .javascriptError, message, _):
                return TransportReply(.compileFailed(SyntaxErrorLocator.engineMessage(message), at: nil))
            case .protocolError(code: .scriptTimeout, _, _), .requestTimedOut:
                return TransportReply(.timedOut)
            case .protocolError(code: .invalidSessionID, _, _), .protocolError(code: .noSuchWindow, _, _), .unreachable:
                throw .webDriver(error)
            case .protocolError(code: .unexpectedAlertOpen, _, _):
                return TransportReply(.interrupted(SyntaxErrorLocator.engineMessage(error.description)), blockedByDialog: true)
            default:
                return TransportReply(.interrupted(SyntaxErrorLocator.engineMessage(error.description)))
            }
        }
        let execution = try PageSession.execution(ofReply: value)
        if case let .reply(reply) = execution, reply.requestLost {
            guard !inBody else { return TransportReply(.interrupted("the page's JSON.parse loses PageScript's requests")) }
            state.withLockedValue { $0.requestInBody = true }
            return try await call(body, entry: entry, request: request, timeout: timeout, confidential: confidential)
        }
        return TransportReply(execution)
    }

    /// Whether a driver's JavaScript error says that the call's document was unloaded while the
    /// call ran (geckodriver: `Document was unloaded`), which is no error of the call's code.
    static func isDocumentUnloaded(_ message: String) -> Bool {
        SyntaxErrorLocator.engineMessage(message).hasPrefix("Document was unloaded")
    }

    private func send(_ serializedScript: String, arguments: [JSONValue], timeout: Double) async throws(WebDriverError) -> JSONValue {
        let answered: JSONValue? = switch way {
        case .driver: nil
        case .webKitAutomation:
            try await session.executeScriptPastTheDriver(serializedScript: serializedScript, arguments: arguments, timeout: timeout)
        case .bidi where serializedScript.utf8.count <= Self.largestBiDiBody:
            try await session.executeScriptThroughBiDi(serializedScript: serializedScript, arguments: arguments, timeout: timeout)
        case .bidi:
            nil
        }
        if let answered { return answered }
        return try await session.executeScript(serializedScript: serializedScript, arguments: arguments, timeout: timeout)
    }

    /// `body` with `sealed` written into it; the last one is kept, as a userscript run again with
    /// the same values and files sends the same text (which is then neither written again nor, by
    /// ``serializedBody(_:)``, escaped again).
    private func sealedScript(_ body: String, sealed: JSONValue, entry: RuntimeEntry) -> String {
        if let last = state.withLockedValue({ $0.lastSealedScript }), last.body == body, last.sealed == sealed { return last.script }
        let script = ScriptBody.embedding(sealed: sealed, in: body, entry: entry)
        state.withLockedValue { $0.lastSealedScript = (body, sealed, script) }
        return script
    }

    /// `body` as a JSON string literal; the last one is kept, as a run sent again sends the same body.
    private func serializedBody(_ body: String) -> String {
        if let last = state.withLockedValue({ $0.lastSerializedBody }), last.body == body { return last.serialized }
        let serialized = JSONValue.string(body).serialized
        state.withLockedValue { $0.lastSerializedBody = (body, serialized) }
        return serialized
    }
}
