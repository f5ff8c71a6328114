import SystemSupport

/// One protocol command, as data: a method and its parameters.
///
/// Commands as values can be sent one after another without waiting for each reply
/// (``DevToolsSession/send(pipelined:timeout:)``), which is how a target paused by auto-attach
/// must be prepared: Chromium answers some commands for a paused new window only once it runs.
///
/// ```swift
/// let replies = await page.send(pipelined: [
///     .enablePage,
///     .addScriptToEvaluateOnNewDocument("window.started = true"),
///     .runIfWaitingForDebugger,
/// ])
/// ```
public struct DevToolsCommand: Sendable, Equatable {
    /// The command's name, e.g. `Page.enable`.
    public let method: String
    /// Its `params` object.
    public let parameters: JSONValue

    /// A command named `method` with `parameters`.
    public init(_ method: String, _ parameters: JSONValue = .object([])) {
        self.method = method
        self.parameters = parameters
    }

    /// `Page.enable`.
    public static let enablePage = DevToolsCommand("Page.enable")

    /// `Runtime.enable` (also what makes `Runtime.bindingCalled` arrive).
    public static let enableRuntime = DevToolsCommand("Runtime.enable")

    /// `Runtime.runIfWaitingForDebugger`.
    public static let runIfWaitingForDebugger = DevToolsCommand("Runtime.runIfWaitingForDebugger")

    /// `Page.setLifecycleEventsEnabled`.
    public static func setLifecycleEventsEnabled(_ enabled: Bool = true) -> DevToolsCommand {
        DevToolsCommand("Page.setLifecycleEventsEnabled", ["enabled": .bool(enabled)])
    }

    /// `Page.addScriptToEvaluateOnNewDocument`; see
    /// ``DevToolsSession/addScriptToEvaluateOnNewDocument(_:worldName:runImmediately:)``.
    public static func addScriptToEvaluateOnNewDocument(
        _ source: String, worldName: String? = nil, runImmediately: Bool = false
    ) -> DevToolsCommand {
        var parameters: [(key: String, value: JSONValue)] = [("source", .string(source))]
        if let worldName { parameters.append(("worldName", .string(worldName))) }
        if runImmediately { parameters.append(("runImmediately", true)) }
        return DevToolsCommand("Page.addScriptToEvaluateOnNewDocument", .object(parameters))
    }

    /// `Runtime.addBinding`; see ``DevToolsSession/addBinding(_:executionContextName:)``.
    public static func addBinding(_ name: String, executionContextName: String? = nil) -> DevToolsCommand {
        var parameters: [(key: String, value: JSONValue)] = [("name", .string(name))]
        if let executionContextName { parameters.append(("executionContextName", .string(executionContextName))) }
        return DevToolsCommand("Runtime.addBinding", .object(parameters))
    }

    /// `Page.setBypassCSP`.
    public static func setBypassCSP(_ enabled: Bool = true) -> DevToolsCommand {
        DevToolsCommand("Page.setBypassCSP", ["enabled": .bool(enabled)])
    }

    /// `Target.setAutoAttach` with `flatten: true`; see
    /// ``DevToolsSession/setAutoAttach(_:waitForDebuggerOnStart:)``.
    public static func setAutoAttach(_ autoAttach: Bool = true, waitForDebuggerOnStart: Bool = true) -> DevToolsCommand {
        DevToolsCommand("Target.setAutoAttach", [
            "autoAttach": .bool(autoAttach), "waitForDebuggerOnStart": .bool(waitForDebuggerOnStart), "flatten": true,
        ])
    }
}
