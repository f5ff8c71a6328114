import Foundation
import DevTools
import NIOConcurrencyHelpers
import SystemSupport
import WebDriver

/// DevTools' `Runtime.evaluate` in the page's main world (Chromium).
///
/// The body goes inside a function expression called with the request (two lines above the body,
/// as chromedriver has, so the runtime's line offset holds for both). V8 runs it without
/// chromedriver's script (which uses the page's `Function`, `Promise` and `JSON`), reports compile
/// errors with their position, and stops a script that runs too long. It is the faster hop too:
/// chromedriver's Execute Script wraps the script in its own function and checks the page before
/// and after.
///
/// Calls go on the browser's own DevTools connection when the window is attached there
/// (``DirectDevTools``), else through chromedriver's `goog/cdp/execute`, or through a tab's own
/// ``DevToolsRoute`` (a page in a tab the WebDriver session is not on). An endpoint that names a
/// DevTools address but refuses `goog/cdp/execute` (a grid that does not pass the command on)
/// gets the driver's Execute Script for the rest of the session.
final class DevToolsTransport: PageTransport {
    /// Where the DevTools commands go.
    enum Way {
        /// The WebDriver session's current window: its direct connection when there is one,
        /// chromedriver's `goog/cdp/execute` otherwise.
        case driver(DirectDevTools?)
        /// A tab of its own; nothing about it goes through WebDriver.
        case route(DevToolsRoute)
    }

    private struct State {
        /// Whether the endpoint refused `goog/cdp/execute`: Execute Script from then on.
        var refused = false
        /// Whether a call the page broke was sent again in this document.
        var retried = false
    }

    let session: WebDriverSession
    let way: Way
    private let fallback: ExecuteScriptTransport
    private let state = NIOLockedValueBox(State())

    init(session: WebDriverSession, way: Way) {
        self.session = session
        self.way = way
        fallback = .driver(session)
    }

    private var refused: Bool { state.withLockedValue { $0.refused } }

    var followsDriverScriptTimeout: Bool { refused }
    var sendsDevToolsCommands: Bool { !refused }
    var exposesCallsToPage: String? { refused ? fallback.exposesCallsToPage : nil }

    /// Sends every call through the driver's Execute Script from now on, as after the endpoint's
    /// first refusal of `goog/cdp/execute`.
    func learnEndpointRefusesDevTools() {
        state.withLockedValue { $0.refused = true }
    }

    func documentChanged() {
        state.withLockedValue { $0.retried = false }
        fallback.documentChanged()
    }

    func retryAfterInterference() -> Bool {
        guard case .driver = way else { return false }
        return state.withLockedValue { state in
            defer { state.retried = true }
            return !state.retried
        }
    }

    func run(_ code: String, timeout: Double) async throws(WebDriverError) -> JSONValue {
        guard case let .route(route) = way else {
            return try await session.executeScript(code, timeout: timeout)
        }
        let parameters: JSONValue = ["expression": .string("(function () {\n" + code + "\n})()"), "returnByValue": true]
        let reply = try await route.send("Runtime.evaluate", parameters, timeout)
        if let details = reply["exceptionDetails"] {
            throw .protocolError(code: .javascriptError, message: Self.exceptionDescription(details), stacktrace: "")
        }
        return reply["result"]?["value"] ?? .null
    }

    func call(_ body: String, entry: RuntimeEntry, request: JSONValue, timeout: Double,
              confidential: Bool) async throws(InjectionError) -> TransportReply {
        if !refused, let reply = try await evaluate(body, request: request, timeout: timeout) { return reply }
        // The endpoint does not pass DevTools commands on: Execute Script from now on.
        state.withLockedValue { $0.refused = true }
        return try await fallback.call(body, entry: entry, request: request, timeout: timeout, confidential: confidential)
    }

    /// - Returns: `nil` when the endpoint does not know the command.
    private func evaluate(_ body: String, request: JSONValue, timeout: Double) async throws(InjectionError) -> TransportReply? {
        let expression = "(function () {\n\n" + body + "\n})(" + JSONValue.string(request.serialized).serialized + ")"
        // DevTools lets code it evaluates `eval` text that the page's policy refuses, as the
        // console may; the user's code gets what the page allows, as on WebKit and after an `await`.
        // The engine stops the evaluation a little before the client gives up on the call, as a
        // driver's script timeout would.
        let engineLimit = max(timeout - PageSession.runMargin, PageSession.runMargin)
        let parameters: JSONValue = [
            "expression": .string(expression), "returnByValue": true, "awaitPromise": true,
            "timeout": .integer(Int64(engineLimit * 1000)), "allowUnsafeEvalBlockedByCSP": false,
        ]
        let margin = timeout - engineLimit
        let started = Date()
        let execution = try await evaluate(parameters, timeout: timeout, margin: margin)
        // The engine's evaluation timeout ends the call as a failure ("Internal error", an
        // exception): the run's time is up, and nothing else went wrong.
        if case .interrupted = execution?.execution, Date().timeIntervalSince(started) >= engineLimit {
            return TransportReply(.timedOut)
        }
        return execution
    }

    private func evaluate(_ parameters: JSONValue, timeout: Double, margin: Double) async throws(InjectionError) -> TransportReply? {
        let reply: JSONValue
        if case let .driver(direct) = way, let outcome = await direct?.evaluate(serializedParameters: parameters.serialized, timeout: timeout + margin) {
            switch outcome {
            case let .reply(value): reply = value
            case .dialogOpened: return TransportReply(.interrupted("the page opened a dialog"))
            case let .failed(error): return TransportReply(Self.execution(ofFailure: error))
            case .dialogOpenBeforeCall: return TransportReply(.interrupted("the page has a dialog open"), blockedByDialog: true)
            }
        } else {
            do {
                switch way {
                case let .route(route): reply = try await route.send("Runtime.evaluate", parameters, timeout + margin)
                case .driver: reply = try await session.chromeDevTools("Runtime.evaluate", parameters: parameters, timeout: timeout + margin)
                }
            } catch {
                switch error {
                // chromedriver's own wait for the page ("Timed out receiving message from renderer").
                case .requestTimedOut, .protocolError(code: .timeout, _, _), .protocolError(code: .scriptTimeout, _, _):
                    return TransportReply(.timedOut)
                case .protocolError(code: .invalidSessionID, _, _), .protocolError(code: .noSuchWindow, _, _), .unreachable:
                    throw .webDriver(error)
                case .protocolError(code: .unknownCommand, _, _), .protocolError(code: .unknownMethod, _, _):
                    guard case .route = way else { return nil }
                    return TransportReply(.interrupted(SyntaxErrorLocator.engineMessage(error.description)))
                case .protocolError(code: .unexpectedAlertOpen, _, _):
                    return TransportReply(.interrupted(SyntaxErrorLocator.engineMessage(error.description)), blockedByDialog: true)
                default:
                    return TransportReply(.interrupted(SyntaxErrorLocator.engineMessage(error.description)))
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
                return TransportReply(.compileFailed(ScriptError.trimmed(message), at: position))
            }
            return TransportReply(.interrupted(ScriptError.trimmed(description)))
        }
        return TransportReply(try PageSession.execution(ofReply: reply["result"]?["value"] ?? .null))
    }

    /// What a DevTools `exceptionDetails` says was thrown.
    static func exceptionDescription(_ details: JSONValue) -> String {
        details["exception"]?["description"]?.stringValue ?? details["text"]?.stringValue ?? "an exception"
    }

    /// A direct evaluation that failed: a timeout is the run's; anything else (the connection's end,
    /// a document that went away mid-call) is an interruption, which the driver then explains.
    static func execution(ofFailure error: DevToolsError) -> PageSession.Execution {
        switch error {
        case .timedOut, .cancelled: .timedOut
        case let .commandFailed(_, _, message, _): .interrupted(SyntaxErrorLocator.engineMessage(message))
        default: .interrupted(error.description)
        }
    }
}
