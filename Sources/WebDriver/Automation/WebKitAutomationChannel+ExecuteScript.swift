import SystemSupport
extension WebKitAutomationChannel {
    /// Execute Script as WebKitWebDriver performs it, from here: waits for a navigation in
    /// progress and asks whether a dialog is open (both sent at once), then evaluates
    /// `function(){\n<script>\n}` with `arguments` in the top-level document of
    /// `browsingContext`, with the driver's error names turned into its W3C codes.
    ///
    /// - Parameters:
    ///   - serializedScript: The function body as a JSON string literal.
    ///   - arguments: The arguments, each sent as its JSON text.
    ///   - browsingContext: The window's handle (WebKitWebDriver's window handles are the
    ///     automation session's browsing context handles).
    ///   - scriptTimeout: The session's script timeout in milliseconds; `nil` for none.
    ///   - pageLoadTimeout: The session's page-load timeout in milliseconds; `nil` for none.
    ///   - timeout: How long PageScript waits for the answer, in seconds.
    /// - Returns: The script's value; `nil` when the driver must run it instead: nothing was
    ///   evaluated because a dialog is open (the driver applies the session's prompt behaviour),
    ///   a navigation did not complete, or the channel is not attached.
    func executeScript(serializedScript: String, arguments: [JSONValue], browsingContext: String,
                       scriptTimeout: Int64?, pageLoadTimeout: Int64?, timeout: Double) async throws(WebDriverError) -> JSONValue? {
        let context = JSONValue.string(browsingContext).serialized
        let navigation = send("waitForNavigationToComplete", parameters: "{\"browsingContextHandle\":\(context),\"frameHandle\":\"\""
                              + (pageLoadTimeout.map { ",\"pageLoadTimeout\":\($0)}" } ?? "}"), timeout: timeout)
        let dialog = send("isShowingJavaScriptDialog", parameters: "{\"browsingContextHandle\":\(context)}", timeout: timeout)
        do {
            _ = try await navigation.get()
            guard try await dialog.get()["result"] == .bool(false) else { return nil }
        } catch {
            return nil
        }
        let function = ExecuteScriptFunction.serialized(wrapping: serializedScript)
        let serializedArguments = "[" + arguments.map { JSONValue.string($0.serialized).serialized }.joined(separator: ",") + "]"
        let parameters = "{\"browsingContextHandle\":\(context),\"frameHandle\":\"\",\"function\":\(function),\"arguments\":\(serializedArguments)"
            + (scriptTimeout.map { ",\"callbackTimeout\":\($0)}" } ?? "}")
        let result: JSONValue
        do {
            result = try await send("evaluateJavaScriptFunction", parameters: parameters, timeout: timeout).get()
        } catch let failure as Failure {
            throw Self.webDriverError(failure, timeout: timeout)
        } catch {
            throw .malformedReply(command: "execute script", reason: "\(error)")
        }
        guard let text = result["result"]?.stringValue, !text.isEmpty else { return .null }
        do {
            return try JSONValue(parsing: text)
        } catch {
            throw .malformedReply(command: "execute script", reason: "the browser's result is not JSON: \(error)")
        }
    }

    /// The error WebKitWebDriver reports for `failure` (its `Session.cpp` maps the automation
    /// session's error names the same way).
    static func webDriverError(_ failure: Failure, timeout: Double) -> WebDriverError {
        switch failure {
        case .notAttached, .closed:
            return .unreachable(endpoint: "the browser's automation connection", reason: "closed")
        case .timedOut:
            return .requestTimedOut(command: "execute script", seconds: timeout)
        case let .failed(name, details):
            let code: WebDriverErrorCode = switch name {
            case "JavaScriptError": .javascriptError
            case "JavaScriptTimeout": .scriptTimeout
            case "WindowNotFound": .noSuchWindow
            case "FrameNotFound": .noSuchFrame
            case "UnexpectedAlertOpen": .unexpectedAlertOpen
            default: .unknownError
            }
            return .protocolError(code: code, message: details.isEmpty ? name : details, stacktrace: "")
        }
    }
}
