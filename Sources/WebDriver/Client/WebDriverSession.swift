import Foundation
import NIOConcurrencyHelpers
import SystemSupport

/// One browser session on a WebDriver endpoint.
///
/// Delete it on every path (``delete(timeout:)`` is idempotent): an endpoint such as
/// WebKitWebDriver allows one session at a time, and a grid bills for open ones.
public final class WebDriverSession: Sendable {
    /// The session's ID.
    public let id: String
    /// The capabilities the endpoint granted.
    public let capabilities: JSONValue
    /// The client the session talks through.
    public let client: WebDriverClient

    /// Whether the session drives a browser PageScript attached to and must leave as it was:
    /// ``delete(timeout:)`` then sends nothing, since a driver may close what a deleted session
    /// used; stopping the driver PageScript started ends the session instead.
    public let leavesBrowserOpen: Bool

    private let deleted = OnceFlag()
    private let currentWindow = NIOLockedValueBox<String?>(nil)
    private let automation = NIOLockedValueBox<WebKitAutomationChannel?>(nil)
    let timeouts: NIOLockedValueBox<SessionTimeouts>
    /// The session's WebDriver BiDi connection, once asked for (``bidi(timeout:)``).
    let bidiConnection = NIOLockedValueBox<Task<Result<BiDiConnection, BiDiError>, Never>?>(nil)
    /// The window's navigations as WebDriver BiDi reports them, once followed.
    let bidiNavigation = NIOLockedValueBox<BiDiNavigationRecord?>(nil)
    /// Whether following them through BiDi was tried (once a session).
    let bidiNavigationTried = OnceFlag()
    /// Execute Script through WebDriver BiDi, once set up (``executeScriptThroughBiDi(serializedScript:arguments:timeout:)``).
    let bidiScriptCalls = NIOLockedValueBox<Task<BiDiScriptCalls?, Never>?>(nil)

    package init(id: String, capabilities: JSONValue, client: WebDriverClient, leavesBrowserOpen: Bool = false) {
        self.id = id
        self.capabilities = capabilities
        self.client = client
        self.leavesBrowserOpen = leavesBrowserOpen
        timeouts = NIOLockedValueBox(SessionTimeouts(granted: capabilities["timeouts"]))
    }

    /// Whether Execute Script can go to the browser's automation session directly, past the
    /// driver (``executeScriptPastTheDriver(serializedScript:arguments:timeout:)``): a MiniBrowser
    /// PageScript started (`WebKitBrowser.sessionStarted(_:driver:)` in `Engines`).
    public var executesScriptsDirectly: Bool {
        automation.withLockedValue { $0 != nil }
    }

    /// Lets ``executeScriptPastTheDriver(serializedScript:arguments:timeout:)`` use `channel`.
    package func executeScripts(through channel: WebKitAutomationChannel) {
        automation.withLockedValue { $0 = channel }
    }

    /// Where the browser's record of the window's documents stands, for
    /// ``documentLanding(since:requested:)`` after a navigation; `nil` when PageScript cannot
    /// see it: a browser other than a MiniBrowser PageScript started, or one whose session
    /// offers WebDriver BiDi (followed from ``waitForDocumentRecord(within:)`` on).
    public var documentRecordMark: Int? {
        guard let channel = automation.withLockedValue({ $0 }), channel.inspector.target != nil else {
            return bidiNavigation.withLockedValue { $0 }?.mark
        }
        channel.followNavigation()
        return channel.inspector.mark
    }

    /// Waits, at most `seconds`, until the browser's record of the window's documents is being
    /// kept: a window's inspection starts with its first document's process, which a navigation
    /// asked for sooner would outrun. Returns at once where there is no such record or it is
    /// kept already.
    ///
    /// A session that offers WebDriver BiDi (and no DevTools, which say the same) starts
    /// following its window's navigations through it here, on the first call.
    public func waitForDocumentRecord(within seconds: Double) async {
        if offersBiDi, !offersChromeDevTools, bidiNavigationTried.claim() { await followNavigationsThroughBiDi(timeout: seconds) }
        guard let inspector = automation.withLockedValue({ $0 })?.inspector, inspector.isSettingUp else { return }
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
        while inspector.isSettingUp {
            guard DispatchTime.now().uptimeNanoseconds < deadline else {
                inspector.gaveUpWaiting()
                return
            }
            try? await Task.sleep(nanoseconds: 2_000_000)
        }
    }

    /// Where the downloads the window began stand now, as WebDriver BiDi announced them
    /// (``downloadBegan(at:since:)``); `nil` where the window is not followed through BiDi.
    public var downloadMark: Int? {
        bidiNavigation.withLockedValue { $0 }?.downloadCount
    }

    /// Whether the window began a download of `url` after `mark` (``downloadMark``), under any
    /// navigation: Firefox may hand a response to its downloads under a navigation of its own,
    /// announced after the reply to the navigation that asked for it.
    public func downloadBegan(at url: String, since mark: Int) -> Bool {
        bidiNavigation.withLockedValue { $0 }?.downloadBegan(at: url, after: mark) ?? false
    }

    /// What became of a navigation to `requested` asked for after `mark` (``documentRecordMark``),
    /// as the browser's Web Inspector or WebDriver BiDi saw it: whether the window shows that navigation's
    /// document, and the status of the document it shows.
    public func documentLanding(since mark: Int, requested: String) -> DocumentLanding? {
        guard let inspector = automation.withLockedValue({ $0 })?.inspector, inspector.target != nil else {
            return bidiNavigation.withLockedValue { $0 }?.landing(since: mark, requested: requested)
        }
        return inspector.landing(since: mark, requested: requested)
    }

    /// The browser's name and version as the endpoint reports them, e.g. `MiniBrowser 2.50.6`.
    public var browserDescription: String {
        let name = capabilities["browserName"]?.stringValue ?? "browser"
        let version = capabilities["browserVersion"]?.stringValue ?? ""
        return version.isEmpty ? name : "\(name) \(version)"
    }

    /// `POST /session/{id}/timeouts`: the script and page-load timeouts, in seconds.
    public func setTimeouts(script: Double? = nil, pageLoad: Double? = nil) async throws(WebDriverError) {
        var members: [(key: String, value: JSONValue)] = []
        if let script { members.append((key: "script", value: .integer(Int64(script * 1000)))) }
        if let pageLoad { members.append((key: "pageLoad", value: .integer(Int64(pageLoad * 1000)))) }
        _ = try await command(.POST, "/timeouts", body: .object(members), name: "set timeouts")
        timeouts.withLockedValue { granted in
            if let script { granted.script = Int64(script * 1000) }
            if let pageLoad { granted.pageLoad = Int64(pageLoad * 1000) }
        }
    }

    /// `POST /session/{id}/url`: navigates and waits for the page to load.
    public func navigate(to url: String, timeout: Double? = nil) async throws(WebDriverError) {
        _ = try await command(.POST, "/url", body: ["url": .string(url)], name: "navigate", timeout: timeout)
    }

    /// `GET /session/{id}/url`: the top-level browsing context's URL, as the browser knows it.
    ///
    /// Unlike `document.URL` inside the page, a page's script cannot disguise this one.
    public func currentURL(timeout: Double? = nil) async throws(WebDriverError) -> String {
        let value = try await command(.GET, "/url", body: nil, name: "get current url", timeout: timeout)
        guard let url = value.stringValue else { throw .malformedReply(command: "get current url", reason: "not a string") }
        return url
    }

    /// `GET /session/{id}/title`: the page's title.
    public func title(timeout: Double? = nil) async throws(WebDriverError) -> String {
        let value = try await command(.GET, "/title", body: nil, name: "get title", timeout: timeout)
        return value.stringValue ?? ""
    }

    /// `POST /session/{id}/execute/sync`: runs `script` as a function body with `arguments`,
    /// through the driver.
    public func executeScript(
        _ script: String, arguments: [JSONValue] = [], timeout: Double? = nil
    ) async throws(WebDriverError) -> JSONValue {
        try await executeScript(serializedScript: JSONValue.string(script).serialized, arguments: arguments, timeout: timeout)
    }

    /// `POST /session/{id}/execute/sync` with a script already serialised as a JSON string literal
    /// (see ``JSONValue/serialized``), for a script sent again and again (escaped once, not on
    /// every call). `arguments` are serialised as usual.
    public func executeScript(
        serializedScript: String, arguments: [JSONValue] = [], timeout: Double? = nil
    ) async throws(WebDriverError) -> JSONValue {
        try await execute("/execute/sync", serializedScript: serializedScript, arguments: arguments, name: "execute script", timeout: timeout)
    }

    /// Execute Script as the driver would do it, sent by PageScript to the browser's automation
    /// session directly, on a session that ``executesScriptsDirectly``: the same commands, the
    /// same function and arguments, the same errors, one hop fewer.
    ///
    /// - Returns: The script's value; `nil` when it cannot go this way (no channel, or a dialog
    ///   is open, which only the driver's user prompt handling answers): send it through
    ///   ``executeScript(serializedScript:arguments:timeout:)`` then.
    public func executeScriptPastTheDriver(
        serializedScript: String, arguments: [JSONValue] = [], timeout: Double? = nil
    ) async throws(WebDriverError) -> JSONValue? {
        guard let channel = automation.withLockedValue({ $0 }), channel.isAttached else { return nil }
        let window: String
        if let known = knownWindowHandle { window = known } else { window = try await windowHandle(timeout: timeout) }
        let limits = timeouts.withLockedValue { $0 }
        return try await channel.executeScript(
            serializedScript: serializedScript, arguments: arguments, browsingContext: window,
            scriptTimeout: limits.script, pageLoadTimeout: limits.pageLoad, timeout: timeout ?? client.defaultTimeout)
    }

    /// Ends the loading of the current window's document as the browser's Stop button does, on a
    /// session that ``executesScriptsDirectly``: after a load that timed out, WebKitWebDriver
    /// would otherwise make every later command wait for that load first, and time out again,
    /// until the page's last resource came. A page that replaced `window.stop` is left for
    /// `about:blank`.
    ///
    /// - Returns: Whether the window is free of its load now; `false` where PageScript cannot
    ///   reach the browser past the driver.
    public func stopLoading(timeout: Double = 5) async -> Bool {
        guard let channel = automation.withLockedValue({ $0 }), channel.isAttached else { return false }
        let window: String
        if let known = knownWindowHandle {
            window = known
        } else {
            // The driver would wait for the load before answering: ask the browser instead. A
            // session that never switched is on its first window, the only one unless the page
            // opened others, and then which is which cannot be told here.
            guard let windows = try? await channel.send("getBrowsingContexts", parameters: "{}", timeout: timeout).get()["contexts"]?.arrayValue,
                  windows.count == 1, let only = windows[0]["handle"]?.stringValue else { return false }
            window = only
        }
        return await channel.stopLoading(browsingContext: window, timeout: timeout)
    }

    /// `POST /session/{id}/execute/async`: runs `script` with a callback appended to `arguments`;
    /// the reply is the value the script passes to the callback.
    public func executeAsyncScript(
        _ script: String, arguments: [JSONValue] = [], timeout: Double? = nil
    ) async throws(WebDriverError) -> JSONValue {
        try await command(
            .POST, "/execute/async", body: ["script": .string(script), "args": .array(arguments)],
            name: "execute async script", timeout: timeout)
    }

    /// `POST /session/{id}/execute/async` with a script already serialised as a JSON string
    /// literal (see ``JSONValue/serialized``), so that a large constant script is escaped once,
    /// not on every call. `arguments` are serialised as usual.
    public func executeAsyncScript(
        serializedScript: String, arguments: [JSONValue] = [], timeout: Double? = nil
    ) async throws(WebDriverError) -> JSONValue {
        try await execute("/execute/async", serializedScript: serializedScript, arguments: arguments, name: "execute async script", timeout: timeout)
    }

    /// `POST /session/{id}` + `path` with a body of an already serialised script and `arguments`.
    private func execute(
        _ path: String, serializedScript: String, arguments: [JSONValue], name: String, timeout: Double?
    ) async throws(WebDriverError) -> JSONValue {
        let body = "{\"script\":" + serializedScript + ",\"args\":" + JSONValue.array(arguments).serialized + "}"
        return try await client.send(.POST, path: "/session/\(id)" + path, serializedBody: body, command: name, timeout: timeout)
    }

    /// Whether the endpoint is chromedriver (or a grid node in front of one), which takes raw
    /// DevTools commands through ``chromeDevTools(_:parameters:timeout:)``: its new-session reply
    /// names the browser's DevTools endpoint in `goog:chromeOptions.debuggerAddress`.
    public var offersChromeDevTools: Bool {
        capabilities["goog:chromeOptions"]?["debuggerAddress"]?.stringValue != nil
    }

    /// `POST /session/{id}/goog/cdp/execute`: sends one Chrome DevTools Protocol command to the
    /// session's page and returns its result.
    ///
    /// ```swift
    /// if session.offersChromeDevTools {
    ///     let history = try await session.chromeDevTools("Page.getNavigationHistory")
    /// }
    /// ```
    public func chromeDevTools(_ method: String, parameters: JSONValue = [:], timeout: Double? = nil) async throws(WebDriverError) -> JSONValue {
        try await command(.POST, "/goog/cdp/execute", body: ["cmd": .string(method), "params": parameters], name: method, timeout: timeout)
    }

    /// The handle of the window commands go to, as far as this session has seen: the last
    /// ``windowHandle(timeout:)`` read or ``switchToWindow(_:timeout:)``; `nil` before either.
    ///
    /// Only Switch To Window changes a session's current window, so the value holds until the
    /// next switch or until that window closes.
    public var knownWindowHandle: String? {
        currentWindow.withLockedValue { $0 }
    }

    func remember(windowHandle handle: String) {
        currentWindow.withLockedValue { $0 = handle }
    }

    func forgetWindowHandle() {
        currentWindow.withLockedValue { $0 = nil }
    }

    /// `DELETE /session/{id}`: ends the session and closes its browser. Errors are swallowed:
    /// this runs on cleanup paths, where the browser may already be gone. A session that
    /// ``leavesBrowserOpen`` is not deleted at all.
    public func delete(timeout: Double = 5) async {
        guard deleted.claim() else { return }
        if let opened = bidiConnection.withLockedValue({ $0 }), case let .success(connection) = await opened.value { await connection.close() }
        guard !leavesBrowserOpen else { return }
        _ = try? await client.send(.DELETE, path: "/session/\(id)", body: nil, command: "delete session", timeout: timeout)
    }

    /// Sends a command under this session's path.
    public func command(
        _ method: HTTPMethodName, _ path: String, body: JSONValue?, name: String, timeout: Double? = nil
    ) async throws(WebDriverError) -> JSONValue {
        try await client.send(method, path: "/session/\(id)\(path)", body: body, command: name, timeout: timeout)
    }
}

/// A session's script and page-load timeouts in milliseconds (`nil`: none), as granted at its
/// creation (W3C defaults where the reply names none) and set since.
struct SessionTimeouts {
    var script: Int64?
    var pageLoad: Int64?

    init(granted: JSONValue?) {
        script = Self.milliseconds(granted?["script"], default: 30_000)
        pageLoad = Self.milliseconds(granted?["pageLoad"], default: 300_000)
    }

    private static func milliseconds(_ value: JSONValue?, default defaultValue: Int64) -> Int64? {
        guard let value else { return defaultValue }
        if value.isNull { return nil }
        return value.intValue.map(Int64.init) ?? defaultValue
    }
}

/// The HTTP methods WebDriver commands use.
public enum HTTPMethodName: Sendable {
    case GET, POST, DELETE
}
