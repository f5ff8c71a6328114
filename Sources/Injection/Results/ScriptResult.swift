import WebDriver

/// The outcome of running one script on a page.
public struct ScriptResult: Sendable, Equatable {
    /// The page the script ran on, as Action.js `run` reported it.
    public let context: PageContext
    /// The script's completion value as JSON; `nil` when it was `undefined` or the script threw.
    public let value: JSONValue?
    /// Every console call the script made, in order.
    public let console: [ConsoleMessage]
    /// What the script threw; `nil` when it ran to completion.
    public let error: ScriptError?

    public init(context: PageContext, value: JSONValue?, console: [ConsoleMessage], error: ScriptError?) {
        self.context = context
        self.value = value
        self.console = console
        self.error = error
    }

    /// The result as one JSON object:
    /// `{"url","title","value","console":[{"level","message"}],"error":{"name","message","line","column"}|null}`.
    public var json: JSONValue {
        let errorJSON: JSONValue
        if let error {
            var members: [(key: String, value: JSONValue)] = [
                (key: "name", value: .string(error.name)),
                (key: "message", value: .string(error.message)),
                (key: "line", value: error.line.map { .integer(Int64($0)) } ?? .null),
                (key: "column", value: error.column.map { .integer(Int64($0)) } ?? .null),
            ]
            if let stack = error.stack { members.append((key: "stack", value: .string(stack))) }
            errorJSON = .object(members)
        } else {
            errorJSON = .null
        }
        return [
            "url": .string(context.url),
            "title": .string(context.title),
            "value": value ?? .null,
            "console": .array(console.map { ["level": .string($0.level.rawValue), "message": .string($0.message)] }),
            "error": errorJSON,
        ]
    }
}
