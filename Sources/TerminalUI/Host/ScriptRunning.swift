/// Runs a script in the page on the editor's behalf.
///
/// The editor calls ``run(script:)`` when the user presses Ctrl-R and shows the result in its
/// output panel. Throwing means the script could not be run at all (for example the browser
/// went away); the message is shown in the panel. An exception raised *by the script* is not a
/// thrown error: report it in ``ScriptRunResult/error``.
///
/// ```swift
/// struct BrowserRunner: ScriptRunning {
///     let session: BrowserSession
///     func run(script: String) async throws -> ScriptRunResult {
///         let outcome = try await session.evaluate(script)
///         return ScriptRunResult(valueJSON: outcome.json, console: outcome.logs, error: nil)
///     }
/// }
/// ```
public protocol ScriptRunning: Sendable {
    /// Runs the script and reports its value, console output and any exception.
    func run(script: String) async throws -> ScriptRunResult
}
