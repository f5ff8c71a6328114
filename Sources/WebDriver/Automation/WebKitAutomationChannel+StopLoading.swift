import SystemSupport
extension WebKitAutomationChannel {
    /// Ends the loading of `browsingContext`'s document as the browser's Stop button does:
    /// `window.stop()` evaluated without waiting for the load in progress (which is what it
    /// ends); where that leaves the load still going (a page that replaced `window.stop`), the
    /// window goes to `about:blank`, which ends it for certain.
    ///
    /// - Returns: Whether the window has no load in progress now; `false` at once when the page
    ///   does not even evaluate `window.stop()` within ``busyPageTime``: a script of its own keeps
    ///   it busy, and nothing sent to it would be answered either.
    func stopLoading(browsingContext: String, timeout: Double) async -> Bool {
        let context = JSONValue.string(browsingContext).serialized
        let milliseconds = Int(timeout * 1000)
        let evaluation = min(timeout, Self.busyPageTime)
        do {
            _ = try await send("evaluateJavaScriptFunction", parameters: "{\"browsingContextHandle\":\(context),\"frameHandle\":\"\","
                               + "\"function\":\"function(){\\nwindow.stop()\\n}\",\"arguments\":[],\"callbackTimeout\":\(Int(evaluation * 1000))}",
                               timeout: evaluation).get()
        } catch Failure.timedOut {
            return false
        } catch {
            // An error is an answer: the page is not busy.
        }
        let settled = try? await send("waitForNavigationToComplete", parameters: "{\"browsingContextHandle\":\(context),\"frameHandle\":\"\","
                                      + "\"pageLoadTimeout\":\(Self.settlingMilliseconds)}", timeout: timeout).get()
        if settled != nil { return true }
        let blank = try? await send("navigateBrowsingContext", parameters: "{\"handle\":\(context),\"url\":\"about:blank\","
                                    + "\"pageLoadTimeout\":\(milliseconds)}", timeout: timeout).get()
        return blank != nil
    }

    /// How long a page may take to evaluate `window.stop()` before it counts as busy in a script
    /// of its own.
    static let busyPageTime: Double = 1

    /// How long a stopped load may take to end before the window is sent to `about:blank`.
    static let settlingMilliseconds = 500
}
