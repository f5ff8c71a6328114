import SystemSupport
import WebDriver

/// How PageScript's calls reach a page's main world: a function body and one argument in, the
/// body's return value out.
///
/// A ``PageSession`` chooses its transport once, when it is made (``PageSession/transport(for:route:direct:)``):
///
/// - ``DevToolsTransport``: DevTools' `Runtime.evaluate` (Chromium), on the browser's own
///   DevTools connection, a tab's ``DevToolsRoute``, or chromedriver's `goog/cdp/execute`.
/// - ``ExecuteScriptTransport``: W3C Execute Script through the driver (any endpoint), or the
///   same call sent to WebKit's automation channel past the driver
///   (``ExecuteScriptTransport/webKitAutomation(_:)``) or over WebDriver BiDi
///   (``ExecuteScriptTransport/bidi(_:)``, Firefox).
///
/// A transport keeps what it learnt about the current document (a page whose `JSON.parse` loses
/// arguments) until ``documentChanged()``; the session keeps no transport state of its own.
protocol PageTransport: Sendable {
    /// Sends `body` (a function body made for `entry`) with `request` as its argument.
    ///
    /// - Parameter confidential: Whether `request` carries what the page must not read (a
    ///   userscript's values, files and responses): a transport that would put it where the page
    ///   can reach it seals it into the body instead.
    func call(_ body: String, entry: RuntimeEntry, request: JSONValue, timeout: Double, confidential: Bool) async throws(InjectionError) -> TransportReply

    /// Runs `code`, a function body of PageScript's own that returns a JSON value, in the page.
    func run(_ code: String, timeout: Double) async throws(WebDriverError) -> JSONValue

    /// The page has a new document: what the last one broke is tried afresh.
    func documentChanged()

    /// Whether a call that a page broke (a body that compiles yet failed to, a reply lost twice
    /// alike) is worth sending once more in this document, by the way that resists the page
    /// best. Asked once per failure; answers `true` at most once per document.
    func retryAfterInterference() -> Bool

    /// Whether calls are bound by the driver's script timeout (which the session then sets).
    var followsDriverScriptTimeout: Bool { get }

    /// Whether DevTools commands reach the page (installing at document start, lifting the
    /// page's Content-Security-Policy when asked).
    var sendsDevToolsCommands: Bool { get }

    /// What a userscript's run is told when this transport lets the page read its calls; `nil`
    /// when it does not.
    var exposesCallsToPage: String? { get }
}

/// What one call through a ``PageTransport`` came back with.
struct TransportReply {
    /// What the call did.
    let execution: PageSession.Execution
    /// Whether the call was refused because the page has a dialog open (nothing ran): answered,
    /// the dialog is out of the way and the call may go again.
    let blockedByDialog: Bool

    init(_ execution: PageSession.Execution, blockedByDialog: Bool = false) {
        self.execution = execution
        self.blockedByDialog = blockedByDialog
    }
}

extension PageSession {
    /// The transport for a page: its DevTools route when it has one (a background tab); DevTools
    /// when the endpoint offers it (Chromium); WebKit's automation channel when PageScript
    /// started the browser with one; WebDriver BiDi when the endpoint offers it (Firefox);
    /// otherwise the driver's Execute Script.
    static func transport(for session: WebDriverSession, route: DevToolsRoute?, direct: DirectDevTools?) -> any PageTransport {
        if let route { return DevToolsTransport(session: session, way: .route(route)) }
        if session.offersChromeDevTools { return DevToolsTransport(session: session, way: .driver(direct)) }
        if session.executesScriptsDirectly { return ExecuteScriptTransport.webKitAutomation(session) }
        if session.offersBiDi { return ExecuteScriptTransport.bidi(session) }
        return ExecuteScriptTransport.driver(session)
    }

    /// The reply text a call brought back, read: the runtime's reply, or one of the two answers
    /// a body gives without a runtime (``ScriptBody``).
    static func execution(ofReply value: JSONValue) throws(InjectionError) -> Execution {
        guard let text = value.stringValue else {
            return .interrupted("the driver returned \(value.serialized) instead of the runtime's reply")
        }
        // A reply is JSON text (`{"pagescript":…`): the two answers without a runtime start otherwise.
        guard text.hasPrefix("pagescript:") else { return .reply(try RuntimeReply(text: text)) }
        let impostor = text.hasPrefix(ScriptBody.impostor)
        let prefix = impostor ? ScriptBody.impostor : ScriptBody.notInstalled
        guard text.hasPrefix(prefix) else { return .reply(try RuntimeReply(text: text)) }
        return .notInstalled(documentStart: Double(text.dropFirst(prefix.count).trimmingCharacters(in: .whitespaces)), impostor: impostor)
    }
}
