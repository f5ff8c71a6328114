import SystemSupport
extension WebKitAutomationChannel {
    /// Ends the loading of `browsingContext`'s document as the browser's Stop button does:
    /// `window.stop()` evaluated without waiting for the load in progress (which is what it
    /// ends); where that leaves the load still going (a page that replaced `window.stop`), the
    /// window goes to `about:blank`, which ends it for certain.
    ///
    /// - Returns: Whether the window has no load in progress now.
    func stopLoading(browsingContext: String, timeout: Double) async -> Bool {
        let context = JSONValue.string(browsingContext).serialized
        let milliseconds = Int(timeout * 1000)
        _ = try? await send("evaluateJavaScriptFunction", parameters: "{\"browsingContextHandle\":\(context),\"frameHandle\":\"\","
                            + "\"function\":\"function(){\\nwindow.stop()\\n}\",\"arguments\":[],\"callbackTimeout\":\(milliseconds)}",
                            timeout: timeout).get()
        let settled = try? await send("waitForNavigationToComplete", parameters: "{\"browsingContextHandle\":\(context),\"frameHandle\":\"\","
                                      + "\"pageLoadTimeout\":\(Self.settlingMilliseconds)}", timeout: timeout).get()
        if settled != nil { return true }
        let blank = try? await send("navigateBrowsingContext", parameters: "{\"handle\":\(context),\"url\":\"about:blank\","
                                    + "\"pageLoadTimeout\":\(milliseconds)}", timeout: timeout).get()
        return blank != nil
    }

    /// How long a stopped load may take to end before the window is sent to `about:blank`.
    static let settlingMilliseconds = 500
}
