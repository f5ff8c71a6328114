import Foundation
import WebDriver

/// A browser session on one page, driven through Action.js exactly as Safari drives an Action
/// Extension: `run` reports the page's URL and title, `finalize` runs the user's script.
///
/// Running a script costs one page round trip: a single Execute Async Script call runs Action.js
/// `run`, checks the page, and then `finalize`, with the script passed as a JSON argument (data),
/// never spliced into source.
///
/// ```swift
/// let page = PageSession(session: session, scriptTimeout: 30)
/// let context = try await page.open("http://127.0.0.1:8080/")
/// let result = try await page.run(script: "document.title.toUpperCase()")
/// ```
public final class PageSession: Sendable {
    /// The WebDriver session underneath.
    public let session: WebDriverSession
    /// How long a script may run, in seconds.
    public let scriptTimeout: Double

    /// Extra time over the script timeout before the client gives up on the driver itself.
    static let transportMargin: Double = 3

    public init(session: WebDriverSession, scriptTimeout: Double) {
        self.session = session
        self.scriptTimeout = scriptTimeout
    }

    /// Navigates to `url` and returns the page's context from Action.js `run`.
    public func open(_ url: String, loadTimeout: Double = 60) async throws(InjectionError) -> PageContext {
        do {
            try await session.navigate(to: url, timeout: loadTimeout + Self.transportMargin)
        } catch {
            switch error {
            case .protocolError(code: .timeout, _, _), .requestTimedOut:
                throw .navigationFailed(url: url, reason: "the page did not load within \(Int(loadTimeout)) s")
            case .protocolError(code: .invalidArgument, let message, _), .protocolError(code: .unknownError, let message, _):
                throw .navigationFailed(url: url, reason: message)
            default:
                throw .webDriver(error)
            }
        }
        return try await context()
    }

    /// The page's context from Action.js `run`, without running a script.
    public func context() async throws(InjectionError) -> PageContext {
        let reply = try await execute(request: ["customJavaScript": .null, "requiredURL": .null])
        return try Self.decodeContext(reply)
    }

    /// The page's address as the browser knows it (the page's own script cannot disguise it).
    public func browserURL() async throws(InjectionError) -> String {
        do {
            return try await session.currentURL(timeout: scriptTimeout + Self.transportMargin)
        } catch {
            throw .webDriver(error)
        }
    }

    /// Runs `script` on the page through Action.js `finalize` and returns its outcome.
    ///
    /// - Parameters:
    ///   - script: The user's JavaScript.
    ///   - requiredURL: When given, the script runs only if the page is still at exactly this
    ///     address when it would start (checked in the page, in the same round trip); otherwise
    ///     ``InjectionError/pageChanged(expected:actual:)`` is thrown and nothing ran.
    public func run(script: String, requiredURL: String? = nil) async throws(InjectionError) -> ScriptResult {
        let reply = try await execute(request: [
            "customJavaScript": .string(script),
            "requiredURL": requiredURL.map { .string($0) } ?? .null,
        ])
        let context = try Self.decodeContext(reply)
        if let moved = reply["refused"]?.stringValue {
            throw .pageChanged(expected: requiredURL ?? "", actual: moved)
        }
        guard let outcome = reply["outcome"] else { throw .malformedReply(reason: "no outcome") }
        return try Self.decodeOutcome(outcome, context: context)
    }

    /// Ends the browser session. Idempotent; errors are ignored (the browser may be gone).
    public func close() async {
        await session.delete(timeout: 3)
    }

    private func execute(request: JSONValue) async throws(InjectionError) -> JSONValue {
        let script = try Self.serializedDriverScript()
        let reply: JSONValue
        do {
            reply = try await session.executeAsyncScript(
                serializedScript: script, arguments: [request], timeout: scriptTimeout + Self.transportMargin)
        } catch {
            switch error {
            case .protocolError(code: .scriptTimeout, _, _), .requestTimedOut:
                throw .timedOut(seconds: scriptTimeout)
            default:
                throw .webDriver(error)
            }
        }
        guard let text = reply.stringValue else {
            throw .malformedReply(reason: "the page replied with something other than text")
        }
        let decoded: JSONValue
        do {
            decoded = try JSONValue(parsing: text)
        } catch {
            throw .malformedReply(reason: error.description)
        }
        if let problem = decoded["protocolError"]?.stringValue {
            throw .malformedReply(reason: "Action.js failed in the page: \(problem)")
        }
        return decoded
    }

    static func decodeContext(_ reply: JSONValue) throws(InjectionError) -> PageContext {
        guard let context = reply["context"] else { throw .malformedReply(reason: "no page context") }
        guard let url = context["URL"]?.stringValue else { throw .malformedReply(reason: "the page's URL is not a string") }
        guard let title = context["title"]?.stringValue else { throw .malformedReply(reason: "the page's title is not a string") }
        return try PageContext(url: url, title: title)
    }

    static func decodeOutcome(_ outcome: JSONValue, context: PageContext) throws(InjectionError) -> ScriptResult {
        var console: [ConsoleMessage] = []
        for entry in outcome["console"]?.arrayValue ?? [] {
            guard let levelName = entry["level"]?.stringValue, let level = ConsoleMessage.Level(rawValue: levelName),
                  let message = entry["message"]?.stringValue else {
                throw .malformedReply(reason: "a console entry is malformed")
            }
            console.append(ConsoleMessage(level: level, message: message))
        }
        if let error = outcome["error"], !error.isNull {
            let scriptError = ScriptError(
                name: error["name"]?.stringValue ?? "Error",
                message: error["message"]?.stringValue ?? "",
                line: error["line"]?.intValue.flatMap { $0 > 0 ? $0 : nil },
                column: error["column"]?.intValue.flatMap { $0 > 0 ? $0 : nil },
                stack: error["stack"]?.stringValue)
            return ScriptResult(context: context, value: nil, console: console, error: scriptError)
        }
        let hasValue: Bool
        if case .bool(true)? = outcome["hasValue"] { hasValue = true } else { hasValue = false }
        return ScriptResult(context: context, value: hasValue ? (outcome["value"] ?? .null) : nil, console: console, error: nil)
    }

    /// The body of the Execute Async Script call: Action.js followed by a fixed driver that calls
    /// `run`, checks the page, and calls `finalize` with the request's script. Both parts are
    /// PageScript's own constant code; the user's script arrives only as `arguments[0]`.
    static func driverScript() throws(InjectionError) -> String {
        switch cachedDriverScript {
        case let .success(text): return text
        case let .failure(error): throw error
        }
    }

    /// ``driverScript()`` as a JSON string literal, escaped once.
    static func serializedDriverScript() throws(InjectionError) -> String {
        switch cachedSerializedDriverScript {
        case let .success(text): return text
        case let .failure(error): throw error
        }
    }

    private static let cachedDriverScript: Result<String, InjectionError> = {
        do throws(InjectionError) {
            return .success(compact(try ActionScript.source()) + "\n" + driverShim)
        } catch {
            return .failure(error)
        }
    }()

    private static let cachedSerializedDriverScript: Result<String, InjectionError> = cachedDriverScript.map { JSONValue.string($0).serialized }

    /// Action.js as sent to the page: the same code without whole-line comments and indentation,
    /// a third fewer bytes for the engine to parse on every call. Safe for Action.js, whose
    /// strings and regular expressions never span lines or start a line with `//`.
    static func compact(_ source: String) -> String {
        source.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("//") }
            .joined(separator: "\n")
    }

    private static let driverShim = """
        var pagescriptDone = arguments[arguments.length - 1];
        var pagescriptRequest = arguments[0] || {};
        var pagescriptReply = function(payload) {
            var text;
            try { text = JSON.stringify(payload); } catch (error) { text = JSON.stringify({ protocolError: String(error) }); }
            pagescriptDone(text);
        };
        try {
            ExtensionPreprocessingJS.run({ completionFunction: function(context) {
                var pageContext = { URL: String(context.URL), title: String(context.title) };
                if (pagescriptRequest.requiredURL != null && location.href !== pagescriptRequest.requiredURL) {
                    pagescriptReply({ context: pageContext, refused: String(location.href) });
                    return;
                }
                if (pagescriptRequest.customJavaScript == null) {
                    pagescriptReply({ context: pageContext });
                    return;
                }
                ExtensionPreprocessingJS.finalize({
                    customJavaScript: pagescriptRequest.customJavaScript,
                    completionFunction: function(outcome) { pagescriptReply({ context: pageContext, outcome: outcome }); }
                });
            } });
        } catch (error) {
            pagescriptReply({ protocolError: String(error && error.message || error) });
        }
        """
}
