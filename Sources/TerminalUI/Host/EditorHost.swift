/// What the editor asks of the program that runs it: running the script, and the optional
/// features (examples, saving per site, named scripts).
///
/// A feature whose closure is `nil` is left out of the status line and its key does nothing
/// but say so. Every closure is called off the terminal's thread and may take as long as it
/// needs; the editor stays responsive and shows the result when it arrives. A thrown error
/// is shown to the user as a message (escaped); it does not end the editor.
///
/// ```swift
/// let host = EditorHost(
///     runner: ClosureScriptRunner { script in try await runOnPage(script) },
///     examples: { [ScriptExample(name: "Title", code: "document.title")] },
///     saveForSite: { script in try save(script); return "Saved for \(site)" }
/// )
/// ```
public struct EditorHost: Sendable {
    /// Runs the script (Ctrl-R).
    public var runner: any ScriptRunning
    /// Lists the example scripts (Ctrl-E).
    public var examples: (@Sendable () async throws -> [ScriptExample])?
    /// Saves the script for the current site (Ctrl-S); returns the confirmation to show.
    public var saveForSite: (@Sendable (_ script: String) async throws -> String)?
    /// Lists the names of the saved named scripts (Ctrl-O).
    public var scriptNames: (@Sendable () async throws -> [String])?
    /// Loads one named script chosen from ``scriptNames``.
    public var openScript: (@Sendable (_ name: String) async throws -> NamedScript)?
    /// Saves the script under a name with its patterns and run-at value (Ctrl-N).
    public var saveNamedScript: (@Sendable (_ script: NamedScript) async throws -> Void)?
    /// Validation and defaults for the naming form.
    public var form: ScriptFormSettings

    /// Creates a host; only the runner is required.
    public init(
        runner: any ScriptRunning,
        examples: (@Sendable () async throws -> [ScriptExample])? = nil,
        saveForSite: (@Sendable (_ script: String) async throws -> String)? = nil,
        scriptNames: (@Sendable () async throws -> [String])? = nil,
        openScript: (@Sendable (_ name: String) async throws -> NamedScript)? = nil,
        saveNamedScript: (@Sendable (_ script: NamedScript) async throws -> Void)? = nil,
        form: ScriptFormSettings = ScriptFormSettings()
    ) {
        self.runner = runner
        self.examples = examples
        self.saveForSite = saveForSite
        self.scriptNames = scriptNames
        self.openScript = openScript
        self.saveNamedScript = saveNamedScript
        self.form = form
    }

    /// Which optional features this host offers.
    var features: EditorFeatures {
        EditorFeatures(
            examples: examples != nil,
            saveForSite: saveForSite != nil,
            openScript: scriptNames != nil && openScript != nil,
            saveNamedScript: saveNamedScript != nil
        )
    }
}

/// Which optional host features are available; the state machine and status line use it.
struct EditorFeatures: Hashable, Sendable {
    var examples: Bool
    var saveForSite: Bool
    var openScript: Bool
    var saveNamedScript: Bool

    static let all = EditorFeatures(examples: true, saveForSite: true, openScript: true, saveNamedScript: true)
    static let none = EditorFeatures(examples: false, saveForSite: false, openScript: false, saveNamedScript: false)
}
