/// What the editor asks of the program that runs it: running the script, and the optional
/// features (examples, the script library, the page).
///
/// A feature whose closure is `nil` is left out of the status line and its key says it is not
/// available here. Every closure is called off the terminal's thread and may take as long as it
/// needs; the editor stays responsive and shows the answer when it arrives. A thrown error is
/// shown to the user as a message (escaped); it does not end the editor. A save that would
/// overwrite someone else's change throws ``ScriptConflict``, which the editor turns into a
/// choice for the user.
///
/// ```swift
/// let host = EditorHost(
///     runner: ClosureScriptRunner { script in try await runOnPage(script) },
///     examples: { [ScriptExample(name: "Title", code: "document.title")] },
///     save: { document, code in
///         try write(code, into: document)
///         return SaveReceipt(document: document, message: "Saved \(document.title)")
///     }
/// )
/// ```
public struct EditorHost: Sendable {
    /// Runs the script (Ctrl-R, and Alt-R for the last script again).
    public var runner: any ScriptRunning
    /// Lists the example scripts (Ctrl-E).
    public var examples: (@Sendable () async throws -> [ScriptExample])?
    /// Saves the code into the script on screen (Ctrl-S). Throws ``ScriptConflict`` instead of
    /// overwriting a file that changed or vanished since it was read.
    public var save: (@Sendable (_ document: ScriptDocument, _ code: String) async throws -> SaveReceipt)?
    /// Lists the saved scripts (Ctrl-O).
    public var listScripts: (@Sendable () async throws -> [ScriptSummary])?
    /// Loads one script chosen from ``listScripts``, by ID.
    public var openScript: (@Sendable (_ id: String) async throws -> OpenedScript)?
    /// Reads the script on screen again from its file, as it is now ("load theirs" after a
    /// conflict); later saves compare against this version.
    public var reloadScript: (@Sendable (_ document: ScriptDocument) async throws -> OpenedScript)?
    /// Saves the code as a new script under a name (Ctrl-N, or "keep mine" after a conflict).
    public var createScript: (@Sendable (_ script: NamedScript) async throws -> ScriptDocument)?
    /// Loads the page again (F5) and reports it.
    public var reloadPage: (@Sendable () async throws -> PageInfo)?
    /// Gets a page that is stuck in a script working again (a new page or browser session on
    /// the same address), for cancelling a running script; returns the page and what was done.
    public var recoverPage: (@Sendable () async throws -> (page: PageInfo, message: String))?
    /// Validation and defaults for the naming form.
    public var form: ScriptFormSettings

    /// Creates a host; only the runner is required.
    public init(
        runner: any ScriptRunning,
        examples: (@Sendable () async throws -> [ScriptExample])? = nil,
        save: (@Sendable (_ document: ScriptDocument, _ code: String) async throws -> SaveReceipt)? = nil,
        listScripts: (@Sendable () async throws -> [ScriptSummary])? = nil,
        openScript: (@Sendable (_ id: String) async throws -> OpenedScript)? = nil,
        reloadScript: (@Sendable (_ document: ScriptDocument) async throws -> OpenedScript)? = nil,
        createScript: (@Sendable (_ script: NamedScript) async throws -> ScriptDocument)? = nil,
        reloadPage: (@Sendable () async throws -> PageInfo)? = nil,
        recoverPage: (@Sendable () async throws -> (page: PageInfo, message: String))? = nil,
        form: ScriptFormSettings = ScriptFormSettings()
    ) {
        self.runner = runner
        self.examples = examples
        self.save = save
        self.listScripts = listScripts
        self.openScript = openScript
        self.reloadScript = reloadScript
        self.createScript = createScript
        self.reloadPage = reloadPage
        self.recoverPage = recoverPage
        self.form = form
    }

    /// Which optional features this host offers.
    var features: EditorFeatures {
        EditorFeatures(
            examples: examples != nil,
            save: save != nil,
            openScript: listScripts != nil && openScript != nil,
            reloadScript: reloadScript != nil,
            createScript: createScript != nil,
            reloadPage: reloadPage != nil,
            recoverPage: recoverPage != nil
        )
    }
}

/// Which optional host features are available; the state machine and status line use it.
struct EditorFeatures: Hashable, Sendable {
    var examples: Bool
    var save: Bool
    var openScript: Bool
    var reloadScript: Bool
    var createScript: Bool
    var reloadPage: Bool
    var recoverPage: Bool

    static let all = EditorFeatures(examples: true, save: true, openScript: true, reloadScript: true, createScript: true,
                                    reloadPage: true, recoverPage: true)
    static let none = EditorFeatures(examples: false, save: false, openScript: false, reloadScript: false,
                                     createScript: false, reloadPage: false, recoverPage: false)
}
