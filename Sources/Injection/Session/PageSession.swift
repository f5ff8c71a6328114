import Foundation
import WebDriver

/// A browser session on one page, with PageScript's runtime (Action.js) installed in the page.
///
/// Opening a page installs Action.js once per document, inside a function, leaving only an inert
/// entry point under a random name (see ``ScriptBody``). Running a script then costs one Execute
/// Script call whose body is two constant lines and the script's code; the request travels as the
/// call's argument. When a run is disturbed (a dialog the page opens, a broken transport, a page
/// that navigates), the session asks the runtime for the run's reply again, so nothing the script
/// did is lost to a hiccup, and a page that navigated away is reported as such.
///
/// ```swift
/// let page = PageSession(session: session, scriptTimeout: 30)
/// let context = try await page.open("http://127.0.0.1:8080/")
/// let result = try await page.run(script: "document.title.toUpperCase()")
/// ```
public final class PageSession: Sendable {
    /// The WebDriver session underneath.
    public let session: WebDriverSession
    /// How long a script may run, in seconds, unless a run names its own time.
    public let scriptTimeout: Double
    /// How dialogs are answered while scripts run.
    public let dialogs: DialogPolicy

    /// Extra time over a run's time before the client gives up on the driver itself.
    static let transportMargin: Double = 3
    /// How much longer than a run's own deadline the driver waits, so that the runtime's timer,
    /// which replies with the console lines so far, comes first.
    public static let driverGrace: Double = 1

    let state: SessionState

    /// - Parameters:
    ///   - session: The WebDriver session.
    ///   - scriptTimeout: How long a script may run, in seconds.
    ///   - dialogs: How dialogs are answered.
    ///   - driverScriptTimeout: The script timeout the session was created with, when known (saves
    ///     setting it again before the first run).
    public init(session: WebDriverSession, scriptTimeout: Double, dialogs: DialogPolicy = .dismiss, driverScriptTimeout: Double? = nil) {
        self.session = session
        self.scriptTimeout = scriptTimeout
        self.dialogs = dialogs
        state = SessionState(driverScriptTimeout: driverScriptTimeout)
    }

    /// How long the last ``open(_:loadTimeout:)`` took, in seconds.
    public var lastLoadDuration: Double {
        state.read(\.lastLoadDuration)
    }

    /// Navigates to `url`, installs the runtime and returns the page's context.
    ///
    /// On Chromium, the first navigation of the session first lifts the page's
    /// Content-Security-Policy (`Page.setBypassCSP`), so that scripts may add styles and evaluate
    /// code as they could in a userscript manager.
    ///
    /// - Throws: ``InjectionError/navigationFailed(url:reason:)`` when the page does not load (the
    ///   reason as the browser gave it), ``InjectionError/loadTimedOut(url:seconds:)`` when it does
    ///   not load within `loadTimeout` seconds.
    public func open(_ url: String, loadTimeout: Double = 60) async throws(InjectionError) -> PageContext {
        let started = Date()
        await lowerContentSecurityPolicy()
        do {
            try await session.navigate(to: url, timeout: loadTimeout + Self.transportMargin)
        } catch {
            switch error {
            case .protocolError(code: .timeout, _, _), .requestTimedOut:
                throw .loadTimedOut(url: url, seconds: loadTimeout)
            case let .protocolError(code: .unknownError, message, _), let .protocolError(code: .invalidArgument, message, _),
                 let .protocolError(code: .insecureCertificate, message, _):
                throw .navigationFailed(url: url, reason: LoadFailure.reason(driverMessage: message))
            case .protocolError(code: .unexpectedAlertOpen, _, _):
                // A dialog the page opened while loading; the installation below answers it.
                break
            default:
                throw .webDriver(error)
            }
        }
        state.update { $0.entry = nil }
        let reply = try await install()
        if let reason = LoadFailure.reason(requested: url, documentURL: reply.documentURL ?? "", pageText: reply.errorPageText) {
            throw .navigationFailed(url: url, reason: reason)
        }
        let context = try reply.context()
        state.update { $0.lastLoadDuration = Date().timeIntervalSince(started) }
        return context
    }

    /// The page's URL and title now.
    public func context() async throws(InjectionError) -> PageContext {
        try await ask(RuntimeRequest.context).context()
    }

    /// The page's address as the browser knows it (the page's own script cannot disguise it).
    public func browserURL() async throws(InjectionError) -> String {
        do {
            return try await session.currentURL(timeout: scriptTimeout + Self.transportMargin)
        } catch {
            throw .webDriver(error)
        }
    }

    /// Runs `script` on the page and returns its outcome.
    ///
    /// - Parameters:
    ///   - script: The JavaScript.
    ///   - requiredURL: When given, the script runs only if the page is still at exactly this
    ///     address when it would start (checked in the page, in the same round trip); otherwise
    ///     ``InjectionError/pageChanged(expected:actual:)`` is thrown and nothing ran.
    ///   - mode: How the text is read (``ScriptMode``).
    ///   - timeout: How long the script may run, in seconds; ``scriptTimeout`` when `nil`.
    public func run(script: String, requiredURL: String? = nil, mode: ScriptMode = .console, timeout: Double? = nil) async throws(InjectionError) -> ScriptResult {
        let prepared: PreparedScript
        do {
            prepared = try PreparedScript(script, mode: mode)
        } catch {
            return ScriptResult(context: try await context(), value: nil, console: [], error: error, dialogs: takePageDialogs())
        }
        return try await run(prepared, requiredURL: requiredURL, timeout: timeout)
    }

    /// Runs a prepared script on the page and returns its outcome (see ``run(script:requiredURL:mode:timeout:)``).
    public func run(_ script: PreparedScript, requiredURL: String? = nil, timeout: Double? = nil) async throws(InjectionError) -> ScriptResult {
        let seconds = timeout ?? scriptTimeout
        let started = Date()
        try await setDriverScriptTimeout(seconds + Self.driverGrace)
        let id = state.update { state -> String in
            state.runCount += 1
            return "run-\(state.runCount)"
        }
        var entry = try await installedEntry()
        var body = ScriptBody.run([script], entry: entry)
        let request = RuntimeRequest.run(id: id, requiredURL: requiredURL, deadline: seconds, dialogs: dialogs, scripts: [script], body: body)
        var outcome = try await execute(body.text, request: request, timeout: seconds + Self.driverGrace + Self.transportMargin)
        if case .notInstalled = outcome {
            // The page changed documents since the runtime was installed (it navigated by itself).
            _ = try await install()
            entry = try await installedEntry()
            body = ScriptBody.run([script], entry: entry)
            outcome = try await execute(body.text, request: request, timeout: seconds + Self.driverGrace + Self.transportMargin)
        }
        let reply: RuntimeReply
        switch outcome {
        case let .reply(received):
            reply = received
        case let .compileFailed(message):
            return try await syntaxErrorResult(script, engineMessage: message)
        case .notInstalled:
            throw .pageInterfered(reason: "PageScript's runtime vanished from the page as soon as it was installed")
        case .timedOut:
            throw .timedOut(seconds: seconds)
        case let .interrupted(reason):
            let remaining = max(0.5, seconds - Date().timeIntervalSince(started))
            reply = try await recover(run: id, entry: entry, reason: reason, seconds: seconds, remaining: remaining, script: script, body: body)
        }
        return try result(of: reply, script: script, body: body, requiredURL: requiredURL, seconds: seconds)
    }

    /// Ends the browser session. Idempotent; errors are ignored (the browser may be gone).
    public func close() async {
        await session.delete(timeout: 3)
    }

    // MARK: - Replies

    private func result(of reply: RuntimeReply, script: PreparedScript, body: ScriptBody, requiredURL: String?, seconds: Double) throws(InjectionError) -> ScriptResult {
        if let moved = reply.refusedAt {
            throw .pageChanged(expected: requiredURL ?? "", actual: moved)
        }
        let (result, finished) = try reply.result(ofScript: 0, prepared: script, placement: body.placements[0])
        let withPageDialogs = ScriptResult(
            context: result.context, value: result.value, console: result.console, error: result.error,
            dialogs: takePageDialogs() + result.dialogs)
        switch reply.state {
        case .done? where finished:
            return withPageDialogs
        case .timedOut?:
            throw .timedOut(seconds: seconds, partial: withPageDialogs.failing(with: ScriptError(name: "Timeout", message: InjectionError.timedOut(seconds: seconds).description)))
        default:
            throw .pageInterfered(reason: "the run ended without the script's outcome", partial: withPageDialogs)
        }
    }

    // MARK: - Recovery

    /// Gets a run's reply after the call that started it came back without one: answers any dialog
    /// the page opened, then asks the runtime for the reply (waiting for the run to finish). A
    /// runtime that is gone means the page changed documents: it navigated away.
    private func recover(run id: String, entry: RuntimeEntry, reason: String, seconds: Double, remaining: Double,
                         script: PreparedScript, body: ScriptBody) async throws(InjectionError) -> RuntimeReply {
        var reason = reason
        for _ in 0..<Self.recoveryAttempts {
            await answerOpenDialog()
            let outcome = try await execute(ScriptBody.call(entry: entry), request: RuntimeRequest.collect(id: id, wait: true),
                                            timeout: remaining + Self.driverGrace + Self.transportMargin)
            switch outcome {
            case let .reply(reply):
                guard reply.missingRun == nil else {
                    throw .pageInterfered(reason: "the page lost the run (\(reason))")
                }
                return reply
            case .notInstalled:
                throw .navigatedAway(to: (try? await browserURL()) ?? "an unknown address")
            case let .interrupted(next):
                reason = next
            case .timedOut:
                throw .timedOut(seconds: seconds)
            case let .compileFailed(message):
                throw .pageInterfered(reason: message)
            }
        }
        throw .pageInterfered(reason: reason)
    }

    static let recoveryAttempts = 4

    /// Reads and answers a dialog the page has open, by the session's policy, and keeps it for
    /// the next result.
    func answerOpenDialog() async {
        guard let text = try? await session.command(.GET, "/alert/text", body: nil, name: "get alert text", timeout: 5),
              let message = text.stringValue else { return }
        let verb = dialogs == .accept ? "accept" : "dismiss"
        _ = try? await session.command(.POST, "/alert/\(verb)", body: [:], name: "\(verb) alert", timeout: 5)
        state.update { $0.pageDialogs.append(ScriptDialog(kind: "dialog", message: message, accepted: dialogs == .accept, openedByPage: true)) }
    }

    private func takePageDialogs() -> [ScriptDialog] {
        state.update { state -> [ScriptDialog] in
            defer { state.pageDialogs = [] }
            return state.pageDialogs
        }
    }

    // MARK: - Syntax errors

    private func syntaxErrorResult(_ script: PreparedScript, engineMessage: String) async throws(InjectionError) -> ScriptResult {
        let session = self.session
        let location = try await SyntaxErrorLocator.locate(
            code: script.code, header: ScriptBody.header(for: script), tokens: script.tokenRanges(), engineMessage: engineMessage
        ) { body throws(InjectionError) in
            do throws(WebDriverError) {
                _ = try await session.executeScript(body, timeout: 10)
                return .compiled
            } catch {
                if case let .protocolError(code: .javascriptError, message, _) = error {
                    return .failed(SyntaxErrorLocator.engineMessage(message))
                }
                throw .webDriver(error)
            }
        }
        guard let location else {
            throw .pageInterfered(reason: "the driver could not compile PageScript's call: \(engineMessage)")
        }
        let offset: Int
        switch location {
        case let .token(at): offset = at
        case .end: offset = script.code.utf16.count
        }
        let position = JavaScriptLines.position(ofOffset: offset, in: script.code)
        let original = script.originalPosition(line: position.line, column: position.column)
        let error = ScriptError(name: "SyntaxError", message: engineMessage, line: original?.line, column: original?.column)
        return ScriptResult(context: try await context(), value: nil, console: [], error: error, dialogs: takePageDialogs())
    }

    // MARK: - Calls

    /// What one Execute Script call came back with.
    enum Execution {
        /// The runtime's reply.
        case reply(RuntimeReply)
        /// The runtime is not installed in the page's current document.
        case notInstalled
        /// The body did not compile; the engine's message.
        case compileFailed(String)
        /// The call came back without a reply (a dialog, a navigation, a driver's error).
        case interrupted(String)
        /// The script did not finish in time.
        case timedOut
    }

    func execute(_ body: String, request: JSONValue, timeout: Double) async throws(InjectionError) -> Execution {
        let value: JSONValue
        do {
            value = try await session.executeScript(body, arguments: [.string(request.serialized)], timeout: timeout)
        } catch {
            switch error {
            case let .protocolError(code: .javascriptError, message, _):
                return .compileFailed(SyntaxErrorLocator.engineMessage(message))
            case .protocolError(code: .scriptTimeout, _, _), .requestTimedOut:
                return .timedOut
            case .protocolError(code: .invalidSessionID, _, _), .protocolError(code: .noSuchWindow, _, _), .unreachable:
                throw .webDriver(error)
            default:
                return .interrupted(SyntaxErrorLocator.engineMessage(error.description))
            }
        }
        guard let text = value.stringValue else {
            return .interrupted("the driver returned \(value.serialized) instead of the runtime's reply")
        }
        if text == ScriptBody.notInstalled { return .notInstalled }
        return .reply(try RuntimeReply(text: text))
    }

    /// Asks the runtime something that is not a run, installing it when the page has a new
    /// document.
    private func ask(_ request: JSONValue) async throws(InjectionError) -> RuntimeReply {
        var reason = ""
        for _ in 0..<Self.recoveryAttempts {
            let entry = try await installedEntry()
            switch try await execute(ScriptBody.call(entry: entry), request: request, timeout: scriptTimeout + Self.transportMargin) {
            case let .reply(reply): return reply
            case .notInstalled: state.update { $0.entry = nil }
            case let .interrupted(next):
                reason = next
                await answerOpenDialog()
            case let .compileFailed(message): throw .pageInterfered(reason: message)
            case .timedOut: throw .timedOut(seconds: scriptTimeout)
            }
        }
        throw .pageInterfered(reason: reason)
    }

    private func installedEntry() async throws(InjectionError) -> RuntimeEntry {
        if let entry = state.read(\.entry) { return entry }
        _ = try await install()
        guard let entry = state.read(\.entry) else { throw .pageInterfered(reason: "PageScript's runtime could not be installed") }
        return entry
    }

    /// Installs Action.js in the page's current document under a new entry and returns its reply
    /// to a context request.
    @discardableResult
    func install() async throws(InjectionError) -> RuntimeReply {
        let entry = RuntimeEntry.random()
        let body = try ScriptBody.install(entry: entry)
        var reason = ""
        for _ in 0..<Self.recoveryAttempts {
            switch try await execute(body, request: RuntimeRequest.context, timeout: scriptTimeout + Self.transportMargin) {
            case let .reply(reply):
                state.update { $0.entry = entry }
                return reply
            case let .compileFailed(message):
                throw .pageInterfered(reason: "PageScript's runtime could not be installed: \(message)")
            case .notInstalled:
                throw .pageInterfered(reason: "PageScript's runtime could not be installed")
            case .timedOut:
                throw .timedOut(seconds: scriptTimeout)
            case let .interrupted(next):
                reason = next
                await answerOpenDialog()
            }
        }
        throw .pageInterfered(reason: "PageScript's runtime could not be installed: \(reason)")
    }

    private func setDriverScriptTimeout(_ seconds: Double) async throws(InjectionError) {
        guard state.read(\.driverScriptTimeout) != seconds else { return }
        do {
            try await session.setTimeouts(script: seconds)
        } catch {
            throw .webDriver(error)
        }
        state.update { $0.driverScriptTimeout = seconds }
    }

    /// Lifts the page's Content-Security-Policy on Chromium, once per session, before the first
    /// navigation. An endpoint without DevTools (a grid that does not forward them) goes without.
    private func lowerContentSecurityPolicy() async {
        guard session.offersChromeDevTools, !state.update({ state -> Bool in
            defer { state.askedToBypassCSP = true }
            return state.askedToBypassCSP
        }) else { return }
        _ = try? await session.chromeDevTools("Page.setBypassCSP", parameters: ["enabled": true], timeout: 10)
    }
}
