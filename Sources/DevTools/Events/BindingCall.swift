
/// A call of a binding from the page: `Runtime.bindingCalled`.
///
/// The payload is the string the page passed; PageScript's own code in the page sends JSON.
///
/// ```swift
/// try await page.addBinding("pagescriptSend", executionContextName: "pagescript")
/// for await event in page.events(["Runtime.bindingCalled"]) {
///     guard let call = BindingCall(event) else { continue }
///     print(call.name, call.payload)
/// }
/// ```
public struct BindingCall: Sendable, Equatable {
    /// The binding's name.
    public let name: String
    /// The string the page passed.
    public let payload: String
    /// The execution context the call came from.
    public let executionContextID: Int
    /// The session of the target it came from.
    public let sessionID: String?

    /// Reads a `Runtime.bindingCalled` event; `nil` for any other event.
    public init?(_ event: DevToolsEvent) {
        guard event.method == "Runtime.bindingCalled", let name = event.parameters["name"]?.stringValue else { return nil }
        self.name = name
        payload = event.parameters["payload"]?.stringValue ?? ""
        executionContextID = event.parameters["executionContextId"]?.intValue ?? 0
        sessionID = event.sessionID
    }
}
