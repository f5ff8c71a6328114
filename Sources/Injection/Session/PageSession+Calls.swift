import DevTools
import SystemSupport

extension PageSession {
    /// What one call into the page came back with.
    enum Execution {
        /// The runtime's reply.
        case reply(RuntimeReply)
        /// The runtime is not installed in the page's current document, whose navigation started at
        /// this time (milliseconds since 1970), when the page said. With `impostor`, a function of
        /// the page's was under the entry's name and did not answer its challenge; the entry is
        /// spent.
        case notInstalled(documentStart: Double?, impostor: Bool = false)
        /// The body did not compile: the engine's message, and the body line and column when the
        /// engine told them.
        case compileFailed(String, at: (line: Int, column: Int)?)
        /// The call came back without a reply (a dialog, a navigation, a driver's error).
        case interrupted(String)
        /// The script did not finish in time.
        case timedOut
    }

    /// Sends one body (made for `entry`) with `request` as its argument: on Chromium through
    /// DevTools' `Runtime.evaluate` (chromedriver's `goog/cdp/execute`), elsewhere through
    /// Execute Script. When the page's `JSON.parse` loses the argument, the request is written
    /// into the body from then on.
    ///
    /// `Runtime.evaluate` is the faster hop (chromedriver's Execute Script wraps the script in its
    /// own function and checks the page before and after), it runs without chromedriver's
    /// script (which uses the page's `Function`, `Promise` and `JSON`), and it is what the
    /// page's interference falls back to
    /// anyway. A `confidential` request (one that holds a userscript's values, files or
    /// responses) never passes through the page's own functions: on Chromium it goes through
    /// `Runtime.evaluate`, elsewhere its confidential part is written into the body, which the
    /// driver hands to the engine to compile rather than to the page's `JSON.parse`; only the run's
    /// ID and timing travel as the argument (``RuntimeRequest/sealing(_:)``), so the body of a
    /// script run again is the same text and the engine does not compile it again.
    ///
    /// A driver refuses a call without running it while the page has a dialog open (one the page
    /// opened while nothing ran: W3C's user prompt handling comes before the command), and so does
    /// the direct DevTools connection, which would wait on it. The dialog is then answered by the
    /// session's policy (and reported with the next result) and the call sent again, once.
    ///
    /// A call through a spent entry (``spend(_:)``) is not sent: it is not installed anywhere
    /// PageScript would trust.
    func execute(_ body: String, entry: RuntimeEntry, request: JSONValue, timeout: Double,
                 confidential: Bool = false) async throws(InjectionError) -> Execution {
        guard !state.read(\.spentEntries).contains(entry.name) else { return .notInstalled(documentStart: nil, impostor: true) }
        var refused = false
        var execution = try await executeOnce(body, entry: entry, request: request, timeout: timeout, confidential: confidential,
                                              refusedForDialog: &refused)
        if refused {
            // Nothing ran: answered or already gone, the dialog is out of the way, and the call goes again.
            await answerOpenDialog()
            execution = try await executeOnce(body, entry: entry, request: request, timeout: timeout, confidential: confidential,
                                              refusedForDialog: &refused)
        }
        if case .notInstalled(_, impostor: true) = execution { spend(entry) }
        return execution
    }

    /// Never calls through `entry` again: a function of the page's under its name has seen its
    /// challenge, and could get the response from the runtime in another document (one the browser
    /// installed it in, or one the back button brings back) and then pass the check. The
    /// session's current runtime and the browser's installation at document start are dropped
    /// with it when they are this entry; the next call installs a new runtime.
    func spend(_ entry: RuntimeEntry) {
        state.update { state in
            state.spentEntries.insert(entry.name)
            if state.entry == entry { state.entry = nil }
            if state.userscriptAPIEntry == entry { state.userscriptAPIEntry = nil }
            if case let .installed(preinstalled) = state.preinstallation, preinstalled == entry { state.preinstallation = .unavailable }
        }
    }

    private func executeOnce(_ body: String, entry: RuntimeEntry, request: JSONValue, timeout: Double,
                             confidential: Bool, refusedForDialog: inout Bool) async throws(InjectionError) -> Execution {
        if state.read(\.usesDevTools) || session.offersChromeDevTools && !state.read(\.devToolsRefused) {
            if let execution = try await evaluate(body, request: request, timeout: timeout, refusedForDialog: &refusedForDialog) {
                return execution
            }
            // The endpoint does not pass DevTools commands on: Execute Script from now on.
            state.update { $0.devToolsRefused = true }
        }
        let inBody = state.read(\.requestInBody)
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
            value = try await session.executeScript(serializedScript: serializedBody(script), arguments: arguments, timeout: timeout)
        } catch {
            switch error {
            case let .protocolError(code: .javascriptError, message, _):
                return .compileFailed(SyntaxErrorLocator.engineMessage(message), at: nil)
            case .protocolError(code: .scriptTimeout, _, _), .requestTimedOut:
                return .timedOut
            case .protocolError(code: .invalidSessionID, _, _), .protocolError(code: .noSuchWindow, _, _), .unreachable:
                throw .webDriver(error)
            case .protocolError(code: .unexpectedAlertOpen, _, _):
                refusedForDialog = true
                return .interrupted(SyntaxErrorLocator.engineMessage(error.description))
            default:
                return .interrupted(SyntaxErrorLocator.engineMessage(error.description))
            }
        }
        let execution = try Self.execution(ofReply: value)
        if case let .reply(reply) = execution, reply.requestLost {
            guard !inBody else { return .interrupted("the page's JSON.parse loses PageScript's requests") }
            state.update { $0.requestInBody = true }
            return try await executeOnce(body, entry: entry, request: request, timeout: timeout, confidential: confidential,
                                         refusedForDialog: &refusedForDialog)
        }
        return execution
    }

    /// `body` with `sealed` written into it; the last one is kept, as a userscript run again with
    /// the same values and files sends the same text (which is then neither written again nor, by
    /// ``serializedBody(_:)``, escaped again).
    private func sealedScript(_ body: String, sealed: JSONValue, entry: RuntimeEntry) -> String {
        if let last = state.read(\.lastSealedScript), last.body == body, last.sealed == sealed { return last.script }
        let script = ScriptBody.embedding(sealed: sealed, in: body, entry: entry)
        state.update { $0.lastSealedScript = (body, sealed, script) }
        return script
    }

    /// `body` as a JSON string literal; the last one is kept, as a run sent again sends the same body.
    private func serializedBody(_ body: String) -> String {
        if let last = state.read(\.lastSerializedBody), last.body == body { return last.serialized }
        let serialized = JSONValue.string(body).serialized
        state.update { $0.lastSerializedBody = (body, serialized) }
        return serialized
    }

    /// The DevTools transport: the same body, inside a function expression called with the request
    /// (two lines above the body, as chromedriver has, so the runtime's line offset holds for
    /// both), evaluated in the page's main world. V8 runs it without chromedriver's script (which
    /// uses the page's `Function`, `Promise` and `JSON`), reports compile errors with their
    /// position, and stops a script that runs too long.
    ///
    /// - Returns: `nil` when the endpoint does not know the command and the session may still use
    ///   Execute Script (it has not moved to DevTools for good).
    func evaluate(_ body: String, request: JSONValue, timeout: Double, refusedForDialog: inout Bool) async throws(InjectionError) -> Execution? {
        let expression = "(function () {\n\n" + body + "\n})(" + JSONValue.string(request.serialized).serialized + ")"
        // DevTools lets code it evaluates `eval` text that the page's policy refuses, as the
        // console may; the user's code gets what the page allows, as on WebKit and after an `await`.
        let parameters: JSONValue = [
            "expression": .string(expression), "returnByValue": true, "awaitPromise": true,
            "timeout": .integer(Int64(timeout * 1000)), "allowUnsafeEvalBlockedByCSP": false,
        ]
        let reply: JSONValue
        if let outcome = await direct?.evaluate(serializedParameters: parameters.serialized, timeout: timeout + Self.transportMargin) {
            switch outcome {
            case let .reply(value): reply = value
            case .dialogOpened: return .interrupted("the page opened a dialog")
            case let .failed(error): return Self.execution(ofFailure: error)
            case .dialogOpenBeforeCall:
                refusedForDialog = true
                return .interrupted("the page has a dialog open")
            }
        } else {
            do {
                reply = try await devTools("Runtime.evaluate", parameters: parameters, timeout: timeout + Self.transportMargin)
            } catch {
                switch error {
                case .requestTimedOut: return .timedOut
                case .protocolError(code: .invalidSessionID, _, _), .protocolError(code: .noSuchWindow, _, _), .unreachable:
                    throw .webDriver(error)
                case .protocolError(code: .unknownCommand, _, _), .protocolError(code: .unknownMethod, _, _):
                    guard state.read(\.usesDevTools) else { return nil }
                    return .interrupted(SyntaxErrorLocator.engineMessage(error.description))
                case .protocolError(code: .unexpectedAlertOpen, _, _):
                    refusedForDialog = true
                    return .interrupted(SyntaxErrorLocator.engineMessage(error.description))
                default:
                    return .interrupted(SyntaxErrorLocator.engineMessage(error.description))
                }
            }
        }
        if let details = reply["exceptionDetails"] {
            let description = Self.exceptionDescription(details)
            if details["exception"]?["className"]?.stringValue == "SyntaxError", details["stackTrace"] == nil {
                let message = description.hasPrefix("SyntaxError: ") ? String(description.dropFirst("SyntaxError: ".count)) : description
                let position = details["lineNumber"]?.intValue.flatMap { line in
                    details["columnNumber"]?.intValue.map { (line: line - 1, column: $0 + 1) }
                }
                return .compileFailed(ScriptError.trimmed(message), at: position)
            }
            return .interrupted(ScriptError.trimmed(description))
        }
        return try Self.execution(ofReply: reply["result"]?["value"] ?? .null)
    }

    /// A direct evaluation that failed: a timeout is the run's; anything else (the connection's end,
    /// a document that went away mid-call) is an interruption, which the driver then explains.
    /// What a DevTools `exceptionDetails` says was thrown.
    static func exceptionDescription(_ details: JSONValue) -> String {
        details["exception"]?["description"]?.stringValue ?? details["text"]?.stringValue ?? "an exception"
    }

    static func execution(ofFailure error: DevToolsError) -> Execution {
        switch error {
        case .timedOut, .cancelled: .timedOut
        case let .commandFailed(_, _, message, _): .interrupted(SyntaxErrorLocator.engineMessage(message))
        default: .interrupted(error.description)
        }
    }

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

    /// What a userscript's run is told when its calls reach a Chromium page through chromedriver's
    /// Execute Script (an endpoint that neither passes DevTools commands on nor, for the direct
    /// connection, names the browser's DevTools address): chromedriver compiles each call's text
    /// with the page's own `Function` (a page that wraps it receives every script a Selenium client
    /// sends, too), so the call's values, files and responses are within the page's reach there.
    /// `nil` on every other transport: DevTools, and the WebKit driver's, which compiles with its
    /// own evaluator.
    var pageCompilesCalls: String? {
        guard !state.read(\.usesDevTools), !session.offersChromeDevTools || state.read(\.devToolsRefused) else { return nil }
        let browser = session.capabilities["browserName"]?.stringValue?.lowercased() ?? ""
        guard session.capabilities["goog:chromeOptions"] != nil || ["chrome", "chromium", "chrome-headless-shell", "msedge", "microsoftedge"].contains(browser)
        else { return nil }
        return "this endpoint passes no DevTools commands on (goog/cdp/execute), so chromedriver compiles each call into the page "
            + "with the page's own Function: a page that replaced it can read what this script's calls carry (its values, files and "
            + "responses); use an endpoint that passes chromedriver's commands on, such as a local chromedriver"
    }

    /// Moves the session to the DevTools transport, when the endpoint offers it and the session
    /// does not use it yet. Returns whether it did.
    func switchToDevTools() -> Bool {
        guard session.offersChromeDevTools, !state.read(\.usesDevTools) else { return false }
        state.update { $0.usesDevTools = true }
        return true
    }

    /// Asks the runtime something that is not a run, installing it when the page has a new
    /// document.
    func ask(_ request: JSONValue) async throws(InjectionError) -> RuntimeReply {
        var reason = ""
        for _ in 0..<Self.recoveryAttempts {
            let entry = try await installedEntry()
            switch try await execute(ScriptBody.call(entry: entry), entry: entry, request: request, timeout: scriptTimeout + Self.transportMargin) {
            case let .reply(reply): return reply
            case .notInstalled: state.update { $0.entry = nil }
            case let .interrupted(next):
                reason = next
                await answerOpenDialog()
            case let .compileFailed(message, _):
                guard switchToDevTools() else { throw .pageInterfered(reason: message) }
            case .timedOut: throw .timedOut(seconds: scriptTimeout)
            }
        }
        throw .pageInterfered(reason: reason)
    }

    func installedEntry() async throws(InjectionError) -> RuntimeEntry {
        if let entry = state.read(\.entry) { return entry }
        return try await install().entry
    }

    /// Installs Action.js in the page's current document under a new entry and returns the entry
    /// and the runtime's reply to `request`, a context request. A page that breaks chromedriver's
    /// script machinery moves the session to the DevTools transport, where that exists.
    func install(answering request: JSONValue = RuntimeRequest.context) async throws(InjectionError) -> (entry: RuntimeEntry, reply: RuntimeReply) {
        let entry = RuntimeEntry.random()
        let body = try ScriptBody.install(entry: entry, userscriptAPI: false)
        var reason = ""
        for _ in 0..<Self.recoveryAttempts {
            let outcome: Execution
            do {
                outcome = try await execute(body, entry: entry, request: request, timeout: scriptTimeout + Self.transportMargin)
            } catch {
                guard case .pageInterfered = error, switchToDevTools() else { throw error }
                continue
            }
            switch outcome {
            case let .reply(reply):
                state.update { $0.entry = entry }
                return (entry, reply)
            case let .compileFailed(message, _):
                reason = message
                guard switchToDevTools() else {
                    throw .pageInterfered(reason: "PageScript's runtime could not be installed: \(Self.explained(message))")
                }
            case .notInstalled:
                throw .pageInterfered(reason: "PageScript's runtime could not be installed")
            case .timedOut:
                throw .timedOut(seconds: scriptTimeout)
            case let .interrupted(next):
                reason = next
                // A dialog the page opened while loading; else the page broke the driver's reply.
                guard await answerOpenDialog() || switchToDevTools() else {
                    throw .pageInterfered(reason: "PageScript's runtime could not be installed: \(Self.explained(next))")
                }
            }
        }
        throw .pageInterfered(reason: "PageScript's runtime could not be installed: \(Self.explained(reason))")
    }

    /// A driver's error with what it means where PageScript knows: WebKit's driver runs every
    /// call through the page's own `Array.prototype.map`, so a page that replaced it (or
    /// `Function.prototype.apply`) breaks every call before PageScript's code runs.
    static func explained(_ message: String) -> String {
        guard message.contains("functionValue.apply(null,argumentValues)") || message.contains("must be an Array-like object") else { return message }
        return message + " (WebKit's driver calls the page's own Array.prototype.map and Function.prototype.apply before any of "
            + "PageScript's code runs, and this page replaced one of them: WebKit cannot run scripts on it; use --engine chromium, "
            + "whose calls do not depend on the page's built-ins)"
    }

    func setDriverScriptTimeout(_ seconds: Double) async throws(InjectionError) {
        guard !state.read(\.usesDevTools), state.read(\.driverScriptTimeout) != seconds else { return }
        do {
            try await session.setTimeouts(script: seconds)
        } catch {
            throw .webDriver(error)
        }
        state.update { $0.driverScriptTimeout = seconds }
    }

    /// Lifts the page's Content-Security-Policy on Chromium, once per session, before the first
    /// navigation, when the session was made to (``bypassesContentSecurityPolicy``); never by
    /// default, since it lets the page's own inline scripts and `eval` run too. An endpoint
    /// without DevTools (a grid that does not forward them) goes without.
    func liftContentSecurityPolicyIfAsked() async {
        guard bypassesContentSecurityPolicy, session.offersChromeDevTools, !state.update({ state -> Bool in
            defer { state.askedToBypassCSP = true }
            return state.askedToBypassCSP
        }) else { return }
        _ = try? await devTools("Page.setBypassCSP", parameters: ["enabled": true], timeout: 10)
    }
}
