import DevTools
import SystemSupport
import WebDriver

extension PageSession {
    /// Runs `source` as an Execute Async Script body would run (its last argument is the callback
    /// that answers) with `arguments`: on the window's own DevTools connection when the session
    /// has one, else through the driver.
    ///
    /// The DevTools way costs a fraction of a millisecond where chromedriver's takes a few, which
    /// matters to a caller that looks at a page often (``Browsing``'s follower), and it runs
    /// beside a call that waits in the page (``watchLateUserScriptWork(waitingAtMost:)``). For a
    /// small script of the caller's own that uses only the page's own timers and properties.
    ///
    /// ```swift
    /// let title = try await page.executeAsyncScript("arguments[arguments.length - 1](document.title);", arguments: [], timeout: 5)
    /// ```
    public func executeAsyncScript(_ source: String, arguments: [JSONValue], timeout: Double) async throws(WebDriverError) -> JSONValue {
        if let direct {
            // The engine's own promise, awaited on an object whose `then` is the call's: nothing
            // of the page's (`Promise`, `Function.prototype.apply`) is used.
            let call = "(async function () { return await { then: function (answer) { (function () {\n" + source + "\n})("
                + (arguments.map(\.serialized) + ["answer"]).joined(separator: ", ") + "); } }; })()"
            let parameters: JSONValue = [
                "expression": .string(call), "returnByValue": true, "awaitPromise": true, "timeout": .integer(Int64(timeout * 1000)),
            ]
            switch await direct.evaluate(serializedParameters: parameters.serialized, timeout: timeout + Self.transportMargin) {
            case let .reply(result)?:
                if let details = result["exceptionDetails"] {
                    throw .protocolError(code: .javascriptError, message: DevToolsTransport.exceptionDescription(details), stacktrace: "")
                }
                return result["result"]?["value"] ?? .null
            case let .failed(error)?:
                switch error {
                case let .timedOut(_, seconds): throw .requestTimedOut(command: "execute async script", seconds: seconds)
                // The connection is gone (the driver's way from now on): the driver says what became of the window.
                case .connectionClosed, .cancelled: break
                default: throw .unknownProtocolError(code: "DevTools", message: error.description)
                }
            case .dialogOpened?, .dialogOpenBeforeCall?:
                throw .protocolError(code: .unexpectedAlertOpen, message: "the page has a dialog open", stacktrace: "")
            case nil:
                break
            }
        }
        return try await session.executeAsyncScript(source, arguments: arguments, timeout: timeout)
    }
}
