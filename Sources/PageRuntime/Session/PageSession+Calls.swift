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

    /// Sends one body (made for `entry`) with `request` as its argument, through the session's
    /// ``PageTransport``.
    ///
    /// A `confidential` request (one that holds a userscript's values, files or responses) never
    /// passes through the page's own functions: DevTools evaluates it with the engine's own;
    /// Execute Script gets its confidential part written into the body, which the driver hands to
    /// the engine to compile rather than to the page's `JSON.parse`; only the run's ID and timing
    /// travel as the argument (``RuntimeRequest/sealing(_:)``), so the body of a script run again
    /// is the same text and the engine does not compile it again.
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
        var reply = try await transport.call(body, entry: entry, request: request, timeout: timeout, confidential: confidential)
        if reply.blockedByDialog {
            // Nothing ran: answered or already gone, the dialog is out of the way, and the call goes again.
            await answerOpenDialog()
            reply = try await transport.call(body, entry: entry, request: request, timeout: timeout, confidential: confidential)
        }
        if case .notInstalled(_, impostor: true) = reply.execution { spend(entry) }
        if case let .reply(received) = reply.execution { keepLaterOutput(of: received) }
        return reply.execution
    }

    /// Keeps what a reply says scripts logged and asked after their runs ended, with each
    /// userscript's ID and name, for ``serveLateUserScriptWork(waitingAtMost:)`` to hand over.
    private func keepLaterOutput(of reply: RuntimeReply) {
        let later = reply.laterOutput
        guard !later.isEmpty else { return }
        state.update { state in
            for entry in later {
                let run = state.userScriptRuns.last(where: { $0.id == entry.run })?.run
                state.laterOutput.append(LateScriptOutput(script: run?.id, name: run?.script.name ?? "", console: entry.console, dialogs: entry.dialogs))
            }
        }
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

    /// Asks the runtime something that is not a run, installing it when the page has a new
    /// document.
    func ask(_ request: JSONValue) async throws(InjectionError) -> RuntimeReply {
        let asked = try await ask(request, intoNewDocuments: true)
        guard let reply = asked.reply else { throw .pageInterfered(reason: asked.reason) }
        return reply
    }

    /// Asks the runtime of the document the session's calls reach now, as ``ask(_:)`` does, but
    /// never the next document's: `nil` when that document is gone (a call finds no runtime under
    /// its entry), where ``ask(_:)`` installs a runtime in the document that replaced it and asks
    /// again. A call cut off is sent again under the same entry: a document being left still
    /// answers it, with what its scripts queued as it was left. For a wait in the page: one that
    /// went on in the next document would keep the session there until that one was left too.
    func askThisDocument(_ request: JSONValue) async throws(InjectionError) -> RuntimeReply? {
        try await ask(request, intoNewDocuments: false).reply
    }

    /// The calls of ``ask(_:)`` and ``askThisDocument(_:)``: a call cut off is sent again once a
    /// dialog is answered; one that finds no runtime under its entry installs a runtime and asks
    /// again `intoNewDocuments`, and otherwise gives up. `reason`: why the last call was cut off.
    private func ask(_ request: JSONValue, intoNewDocuments: Bool) async throws(InjectionError) -> (reply: RuntimeReply?, reason: String) {
        var reason = ""
        let first = try await installedEntry()
        for _ in 0..<Self.recoveryAttempts {
            let entry = intoNewDocuments ? try await installedEntry() : first
            switch try await execute(ScriptBody.call(entry: entry), entry: entry, request: request, timeout: scriptTimeout + Self.transportMargin) {
            case let .reply(reply): return (reply, reason)
            case .notInstalled:
                state.update { state in
                    if state.entry == entry { state.entry = nil }
                }
                guard intoNewDocuments else { return (nil, reason) }
            case let .interrupted(next):
                reason = next
                await answerOpenDialog()
            case let .compileFailed(message, _):
                guard transport.retryAfterInterference() else { throw .pageInterfered(reason: message) }
            case .timedOut: throw .timedOut(seconds: scriptTimeout)
            }
        }
        return (nil, reason)
    }

    func installedEntry() async throws(InjectionError) -> RuntimeEntry {
        if let entry = state.read(\.entry) { return entry }
        return try await install().entry
    }

    /// Installs Action.js in the page's current document under a new entry and returns the entry
    /// and the runtime's reply to `request`, a context request. A page that breaks chromedriver's
    /// script machinery moves the session to the DevTools transport, where that exists.
    ///
    /// `timeout` bounds the installation's call (the session's script timeout when `nil`): a visit
    /// gives it what is left of its own time.
    func install(answering request: JSONValue = RuntimeRequest.context, timeout: Double? = nil) async throws(InjectionError) -> (entry: RuntimeEntry, reply: RuntimeReply) {
        let seconds = timeout ?? scriptTimeout
        let entry = RuntimeEntry.random()
        let body = try ScriptBody.install(entry: entry, userscriptAPI: false)
        var reason = ""
        for _ in 0..<Self.recoveryAttempts {
            let outcome: Execution
            do {
                outcome = try await execute(body, entry: entry, request: request, timeout: seconds + Self.transportMargin)
            } catch {
                guard case .pageInterfered = error, transport.retryAfterInterference() else { throw error }
                continue
            }
            switch outcome {
            case let .reply(reply):
                state.update { $0.entry = entry }
                return (entry, reply)
            case let .compileFailed(message, _):
                reason = message
                guard transport.retryAfterInterference() else {
                    throw .pageInterfered(reason: "PageScript's runtime could not be installed: \(Self.explained(message))")
                }
            case .notInstalled:
                throw .pageInterfered(reason: "PageScript's runtime could not be installed")
            case .timedOut:
                await stopRunningScript()
                throw .timedOut(seconds: seconds)
            case let .interrupted(next):
                reason = next
                // A dialog the page opened while loading; else the page broke the driver's reply.
                guard await answerOpenDialog() || transport.retryAfterInterference() else {
                    throw .pageInterfered(reason: "PageScript's runtime could not be installed: \(Self.explained(next))")
                }
            }
        }
        throw .pageInterfered(reason: "PageScript's runtime could not be installed: \(Self.explained(reason))")
    }

    /// A driver's error with what it means where PageScript knows: WebKit's driver runs every
    /// call through the page's own `Array.prototype.map`, `Function.prototype.apply` and `JSON`
    /// (for the call's arguments and its result), so a page that replaced one of them breaks every
    /// call before PageScript's code runs, or garbles its reply.
    static func explained(_ message: String) -> String {
        let brokenCall = message.contains("functionValue.apply(null,argumentValues)") || message.contains("must be an Array-like object")
            || message.contains("Promise.race(promises)")
        // The driver's result, written with the page's `JSON.stringify`, is then not JSON.
        let brokenReply = message.contains("JSON Parse error") || message.hasPrefix("Unexpected identifier")
        guard brokenCall || brokenReply else { return message }
        return message + " (WebKit's driver calls the page's own Array.prototype.map, Function.prototype.apply and JSON before any of "
            + "PageScript's code runs, and this page replaced one of them: WebKit cannot run scripts on it; use --engine chromium, "
            + "whose calls do not depend on the page's built-ins)"
    }

    func setDriverScriptTimeout(_ seconds: Double) async throws(InjectionError) {
        guard transport.followsDriverScriptTimeout, state.read(\.driverScriptTimeout) != seconds else { return }
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
