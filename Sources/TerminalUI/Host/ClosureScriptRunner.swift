/// A ``ScriptRunning`` made from a closure, for hosts and tests that do not need a type.
///
/// ```swift
/// let runner = ClosureScriptRunner { script in
///     ScriptRunResult(valueJSON: "\"ok\"")
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
