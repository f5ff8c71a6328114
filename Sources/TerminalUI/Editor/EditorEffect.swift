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
