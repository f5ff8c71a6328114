/// Everything that can happen to the editor: input, a resize, a host's answer, idle time, or an
/// order to end. The state machine turns each into a new state and a list of effects.
enum EditorEvent: Sendable {
    case key(KeyEvent)
    case paste(String)
    case resize(TerminalSize)
    case host(HostResponse)
    /// Nothing else is waiting: time to finish work put off to keep frames fast (the colouring
    /// of a large paste).
    case idle
    /// End now, without asking (a signal, the host stopping the editor, the terminal gone).
    case terminate(EditorOutcome.Reason)
}

/// The answer to an ``EditorEffect`` that asked the host for something, or a notice the host
/// sent by itself. Failures carry the error's description, which the editor escapes before
/// showing it.
enum HostResponse: Hashable, Sendable {
    case runFinished(id: Int, ScriptRunResult, duration: Duration)
    case runFailed(id: Int, String)
    /// The save of the document as of `revision` succeeded.
    case saved(SaveReceipt, revision: Int)
    case saveConflict(ScriptConflict, revision: Int)
    case examplesLoaded([ScriptExample])
    case scriptsListed([ScriptSummary])
    case scriptOpened(OpenedScript)
    case scriptReloaded(OpenedScript)
    /// The new script holds the document as of `revision`.
    case scriptCreated(ScriptDocument, revision: Int)
    case pageReloaded(PageInfo)
    case pageRecovered(PageInfo, message: String)
    /// A request other than a run failed.
    case failed(HostRequest, String)
    case notice(EditorNotice)
}

/// A host request the editor waits for, so that a second press does not send it twice.
enum HostRequest: Hashable, Sendable {
    case save
    case examples
    case listScripts
    case openScript
    case reloadScript
    case createScript
    case reloadPage
    case recoverPage

    /// What the status line says when it fails: "Could not …".
    var failureLead: String {
        switch self {
        case .save: "Could not save"
        case .examples: "Could not load the examples"
        case .listScripts: "Could not list the scripts"
        case .openScript: "Could not open the script"
        case .reloadScript: "Could not read the script again"
        case .createScript: "Could not save the new script"
        case .reloadPage: "Could not reload the page"
        case .recoverPage: "Could not recover the page"
        }
    }
}

/// What the state machine asks its I/O shell to do. Each host request is answered later with
/// a ``HostResponse`` event.
enum EditorEffect: Hashable, Sendable {
    case runScript(id: Int, script: String)
    case save(ScriptDocument, code: String, revision: Int)
    case loadExamples
    case listScripts
    case openScript(id: String)
    case reloadScript(ScriptDocument)
    case createScript(NamedScript, revision: Int)
    case reloadPage
    case recoverPage
    /// Put text on the terminal's clipboard (OSC 52).
    case copyToTerminalClipboard(String)
    /// Give the program the person's answer to its question (`nil`: Esc).
    case answer(HostQuestion, key: Character?)
    /// Leave the event loop with this outcome.
    case quit(EditorOutcome)
}
