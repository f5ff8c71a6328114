/// The function an Execute Script body runs in, as the drivers write it (`function(){`, the body
/// from the next line, `}`), for the ways PageScript sends Execute Script itself: WebKit's
/// automation channel and WebDriver BiDi's `script.callFunction`. The body's first line is the
/// function's second either way, so a runtime's line offset is the driver's.
enum ExecuteScriptFunction {
    /// The function as a JSON string literal, from the body's literal (opened, not escaped again).
    static func serialized(wrapping serializedBody: String) -> String {
        "\"function(){\\n" + serializedBody.dropFirst().dropLast() + "\\n}\""
    }
}
