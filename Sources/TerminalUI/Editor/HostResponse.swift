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
