import NIOConcurrencyHelpers
import SystemSupport

/// Execute Script sent as WebDriver BiDi's `script.callFunction` on a session's BiDi connection,
/// with classic WebDriver's answers: one WebSocket message each way instead of an HTTP request
/// the driver turns into its own messages to the browser.
///
/// PageScript's calls into a Firefox page go this way. A call sent just as the page's own
/// navigation commits runs in the new document, whose commit event may come after the call's
/// reply: what runs in a page checks which document it is in, and a visit's run waits there for
/// the moment the visit waits for. The other way round, the reply of a call that ended as its
/// document was being left may come just after the commit event; it is still the call's answer.
///
/// Classic WebDriver applies the session's user prompt handling to a call made while a dialog is
/// open, answers a call whose script opens one with `null` at once, and fails a call whose
/// document is unloaded (`Document was unloaded`); BiDi does none of these (a call waits for the
/// dialog to close, runs while one is open, and waits for good when its document goes). So the
/// window's dialogs and navigations are followed (`browsingContext.userPromptOpened`, `…Closed`,
/// `…navigationStarted`, `…navigationCommitted`, `…load` and the other ends of a navigation):
/// while a dialog is open or a navigation is under way, a call is left to the driver, which
/// handles both in its own way
/// (``WebDriverSession/executeScriptThroughBiDi(serializedScript:arguments:timeout:)`` returns
/// `nil`), and a call whose dialog opens or whose document is replaced without a reply (within
/// ``unloadedReplyGrace``) gets the driver's answer.
/// Once the connection has ended, every call is left to the driver; one under way then fails as
/// a call the driver lost (an unknown error, neither the script's nor a browser gone), so the
/// caller finds out through the driver what became of it.
final class BiDiScriptCalls: Sendable {
    /// The events followed.
    static let events = [
        "browsingContext.userPromptOpened", "browsingContext.userPromptClosed", "browsingContext.navigationStarted",
        "browsingContext.navigationCommitted", "browsingContext.load", "browsingContext.navigationFailed",
        "browsingContext.fragmentNavigated",
    ]

    /// What ends a call before its reply.
    enum Interruption: Error {
        /// A dialog opened.
        case dialog
        /// The window's document was replaced.
        case unloaded
    }

    /// How long a call whose document was replaced still waits for its reply.
    static let unloadedReplyGrace = 0.25

    /// The window's browsing context (geckodriver's window handle is its BiDi context).
    let context: String
    let connection: BiDiConnection

    private struct State {
        var dialogOpen = false
        var navigating = false
        var nextWaiter = 0
        var waiters: [Int: @Sendable (Interruption) -> Void] = [:]
    }

    private let state = NIOLockedValueBox(State())

    init(context: String, connection: BiDiConnection) {
        self.context = context
        self.connection = connection
    }

    /// Whether a call is left to the driver: a dialog is open in the window, a navigation of
    /// its top document is under way, or the connection has ended.
    var leftToTheDriver: Bool {
        state.withLockedValue { $0.dialogOpen || $0.navigating } || connection.hasEnded
    }

    /// An event on the connection.
    func received(_ method: String, _ parameters: JSONValue) {
        let top = parameters["context"]?.stringValue == context
        let interruption: Interruption
        switch method {
        case "browsingContext.userPromptOpened":
            interruption = .dialog
        case "browsingContext.userPromptClosed":
            state.withLockedValue { $0.dialogOpen = false }
            return
        case "browsingContext.navigationStarted" where top:
            state.withLockedValue { $0.navigating = true }
            return
        case "browsingContext.navigationCommitted" where top:
            interruption = .unloaded
        case "browsingContext.load", "browsingContext.navigationFailed", "browsingContext.navigationAborted",
             "browsingContext.fragmentNavigated":
            // `navigationAborted` is not subscribed to (Firefox does not know it yet) but counts
            // where a browser sends it anyway; a navigation whose end is never heard of leaves
            // calls with the driver, as they were before BiDi.
            if top { state.withLockedValue { $0.navigating = false } }
            return
        default:
            return
        }
        let waiters = state.withLockedValue { state -> [@Sendable (Interruption) -> Void] in
            if interruption == .dialog { state.dialogOpen = true }
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        waiters.forEach { $0(interruption) }
    }

    /// Calls `body` (a function body) with `arguments`, in the window's top document.
    ///
    /// - Returns: The function's value; `.null` when a dialog opened while it ran (classic
    ///   WebDriver's answer).
    /// - Throws: The driver's errors; its JavaScript error `Document was unloaded` when the
    ///   window's document was replaced while the call ran.
    func call(serializedBody: String, arguments: [JSONValue], scriptTimeout: Double?, timeout: Double) async throws(WebDriverError) -> JSONValue {
        let wait = min(timeout, scriptTimeout ?? timeout)
        let parameters = "{\"functionDeclaration\":" + ExecuteScriptFunction.serialized(wrapping: serializedBody) + ",\"arguments\":["
            + arguments.map { Self.localValue($0).serialized }.joined(separator: ",") + "],\"target\":{\"context\":"
            + JSONValue.string(context).serialized + "},\"awaitPromise\":true,\"resultOwnership\":\"none\"}"
        let connection = self.connection
        typealias Outcome = Result<Result<JSONValue, BiDiError>, Interruption>
        let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
            let pending = NIOLockedValueBox<CheckedContinuation<Outcome, Never>?>(continuation)
            let resume: @Sendable (Outcome) -> Void = { outcome in
                pending.withLockedValue { waiting in
                    defer { waiting = nil }
                    return waiting
                }?.resume(returning: outcome)
            }
            let waiter = whenInterrupted { interruption in
                guard interruption == .unloaded else { return resume(.failure(interruption)) }
                // The reply of a call that ended as its document went may come just after the
                // commit event: it is the call's answer. A call cut off has none, and waits no longer.
                Task {
                    try? await Task.sleep(for: .seconds(Self.unloadedReplyGrace))
                    resume(.failure(.unloaded))
                }
            }
            Task {
                let reply = await connection.reply(to: "script.callFunction", serializedParameters: parameters, timeout: wait)
                self.forget(waiter)
                resume(.success(reply))
            }
        }
        let reply: Result<JSONValue, BiDiError>
        switch outcome {
        case .failure(.dialog): return .null
        case .failure(.unloaded): throw .protocolError(code: .javascriptError, message: "Document was unloaded", stacktrace: "")
        case let .success(received): reply = received
        }
        switch reply {
        case let .success(result):
            guard result["type"]?.stringValue != "exception" else {
                let text = result["exceptionDetails"]?["text"]?.stringValue ?? "the script threw"
                throw .protocolError(code: .javascriptError, message: text, stacktrace: "")
            }
            return Self.jsonValue(ofRemote: result["result"] ?? .null)
        case let .failure(.timedOut(_, seconds)):
            if let scriptTimeout, scriptTimeout <= timeout {
                throw .protocolError(code: .scriptTimeout, message: "Timed out after \(Int64(scriptTimeout * 1000)) ms", stacktrace: "")
            }
            throw .requestTimedOut(command: "execute script", seconds: seconds)
        case let .failure(.commandFailed(_, error, message)):
            let code: WebDriverErrorCode = switch error {
            case "no such frame": .noSuchWindow
            case "invalid session id": .invalidSessionID
            case "unexpected alert open": .unexpectedAlertOpen
            default: .unknownError
            }
            throw .protocolError(code: code, message: message.isEmpty ? error : message, stacktrace: "")
        case let .failure(.connectionClosed(_, reason)):
            // The browser may still be there: what became of the call is the driver's to say.
            throw .unknownProtocolError(code: "BiDi", message: "the BiDi connection ended while the call ran (\(reason))")
        case let .failure(failure):
            throw .unreachable(endpoint: connection.url.absoluteString, reason: failure.description)
        }
    }

    /// Runs `action` once when a dialog opens (at once when one is open) or the document is
    /// replaced; a key for ``forget(_:)``.
    private func whenInterrupted(_ action: @escaping @Sendable (Interruption) -> Void) -> Int {
        let (key, open) = state.withLockedValue { state -> (Int, Bool) in
            defer { state.nextWaiter += 1 }
            if !state.dialogOpen { state.waiters[state.nextWaiter] = action }
            return (state.nextWaiter, state.dialogOpen)
        }
        if open { action(.dialog) }
        return key
    }

    private func forget(_ key: Int) {
        state.withLockedValue { _ = $0.waiters.removeValue(forKey: key) }
    }

    /// A JSON value as a BiDi `script.LocalValue`.
    static func localValue(_ value: JSONValue) -> JSONValue {
        switch value {
        case .null: ["type": "null"]
        case let .bool(flag): ["type": "boolean", "value": .bool(flag)]
        case let .integer(number): ["type": "number", "value": .integer(number)]
        case let .number(number): ["type": "number", "value": .number(number)]
        case let .string(text): ["type": "string", "value": .string(text)]
        case let .array(items): ["type": "array", "value": .array(items.map(localValue))]
        case let .object(members): ["type": "object", "value": .array(members.map { .array([.string($0.key), localValue($0.value)]) })]
        }
    }

    /// A BiDi `script.RemoteValue` as the JSON classic WebDriver would answer: `null` for
    /// `undefined`, `NaN` and the infinities and for what JSON has no form of.
    static func jsonValue(ofRemote remote: JSONValue) -> JSONValue {
        let value = remote["value"]
        switch remote["type"]?.stringValue {
        case "string": return value ?? .null
        case "boolean": return value ?? .null
        case "number": return value?.stringValue == nil ? value ?? .null : value?.stringValue == "-0" ? .integer(0) : .null
        case "array": return .array((value?.arrayValue ?? []).map(jsonValue(ofRemote:)))
        case "object":
            return .object((value?.arrayValue ?? []).compactMap { pair in
                guard let entry = pair.arrayValue, entry.count == 2, let key = entry[0].stringValue else { return nil }
                return (key: key, value: jsonValue(ofRemote: entry[1]))
            })
        default: return .null
        }
    }
}
