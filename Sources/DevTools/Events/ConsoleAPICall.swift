
/// A `console.*` call in the page: `Runtime.consoleAPICalled` (after `Runtime.enable`).
///
/// ```swift
/// for await event in page.events(["Runtime.consoleAPICalled"]) {
///     if let call = ConsoleAPICall(event) { print(call.type, call.text) }
/// }
/// ```
public struct ConsoleAPICall: Sendable, Equatable {
    /// `log`, `debug`, `info`, `error`, `warning`, `dir`, `table`, `trace`, `assert`, …
    public let type: String
    /// The arguments as the page reported them.
    public let arguments: [RemoteObject]
    /// The execution context that called.
    public let executionContextID: Int
    /// The session of the target it came from.
    public let sessionID: String?

    /// Reads a `Runtime.consoleAPICalled` event; `nil` for any other event.
    public init?(_ event: DevToolsEvent) {
        guard event.method == "Runtime.consoleAPICalled", let type = event.parameters["type"]?.stringValue else { return nil }
        self.type = type
        arguments = (event.parameters["args"]?.arrayValue ?? []).map(RemoteObject.init)
        executionContextID = event.parameters["executionContextId"]?.intValue ?? 0
        sessionID = event.sessionID
    }

    /// The arguments joined by spaces, as a console shows them: strings as they are, other
    /// values as the page described them. The text is the page's: escape it before printing.
    public var text: String {
        arguments.map { argument in
            if let string = argument.value?.stringValue { return string }
            if let value = argument.value, argument.type != "object" || argument.subtype == "null" { return value.serialized }
            return argument.unserializableValue ?? argument.description ?? argument.type
        }.joined(separator: " ")
    }
}
