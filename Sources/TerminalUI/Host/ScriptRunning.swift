/// Runs a script in the page on the editor's behalf.
///
/// The editor calls ``run(script:)`` when the user presses Ctrl-R and shows the result in its
/// output panel. Throwing means the script could not be run at all (for example the browser
/// went away); the message is shown in the panel. An exception raised *by the script* is not a
/// thrown error: report it in ``ScriptRunResult/exception``.
///
/// ```swift
/// struct PageSessionRunner: ScriptRunning {
///     let page: PageSession   // PageRuntime's session on the open page
///     func run(script: String) async throws -> ScriptRunResult {
///         let result = try await page.run(script: script)
///         return ScriptRunResult(value: result.value.map(convert),
///                                exception: result.error.map { ScriptException(name: $0.name, message: $0.message) })
///     }
/// }
/// ```
public protocol ScriptRunning: Sendable {
    /// Runs the script and reports its value, console output and any exception.
    func run(script: String) async throws -> ScriptRunResult
}

/// A ``ScriptRunning`` made from a closure, for hosts and tests that do not need a type.
///
/// ```swift
/// let runner = ClosureScriptRunner { script in
///     ScriptRunResult(value: .string("ok"))
/// }
/// ```
public struct ClosureScriptRunner: ScriptRunning {
    private let body: @Sendable (String) async throws -> ScriptRunResult

    /// Creates a runner that calls `body` with the script.
    public init(_ body: @escaping @Sendable (_ script: String) async throws -> ScriptRunResult) {
        self.body = body
    }

    /// Runs the script by calling the closure.
    public func run(script: String) async throws -> ScriptRunResult {
        try await body(script)
    }
}
