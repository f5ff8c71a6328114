/// Everything that can happen to the editor: input, a resize, a host's answer, or an order
/// to end. The state machine turns each into a new state and a list of effects.
enum EditorEvent: Sendable {
    case key(KeyEvent)
    case paste(String)
    case resize(TerminalSize)
    case host(HostResponse)
    /// End now, without asking (a signal, the host stopping the editor, input closed).
    case terminate(EditorOutcome.Reason)
}

/// The answer to an ``EditorEffect`` that asked the host for something. Failures carry the
/// error's description, which the editor escapes before showing it.
enum HostResponse: Hashable, Sendable {
    case runFinished(ScriptRunResult)
    case runFailed(String)
    /// The site save of the document as of `revision` succeeded, with the host's message.
    case siteSaved(revision: Int, message: String)
    case siteSaveFailed(String)
    case examplesLoaded([ScriptExample])
    case examplesFailed(String)
    case scriptNamesLoaded([String])
    case scriptNamesFailed(String)
    case scriptOpened(NamedScript)
    case scriptOpenFailed(String)
    case namedScriptSaved(NamedScript, revision: Int)
    case namedScriptSaveFailed(String)
}

/// What the state machine asks its I/O shell to do. Each host request is answered later with
/// a ``HostResponse`` event.
enum EditorEffect: Hashable, Sendable {
    case runScript(String)
    case saveForSite(script: String, revision: Int)
    case loadExamples
    case loadScriptNames
    case openScript(name: String)
    case saveNamedScript(NamedScript, revision: Int)
    /// Leave the event loop with this outcome.
    case quit(EditorOutcome)
}
