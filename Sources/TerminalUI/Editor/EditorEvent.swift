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
