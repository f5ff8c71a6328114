/// What kind of change an edit was, which decides whether it joins the previous undo step.
enum EditKind: Hashable, Sendable {
    /// A typed character: consecutive ones form one step per word.
    case typing
    /// Backspace: consecutive ones form one step.
    case deletingBackward
    /// Delete: consecutive ones form one step.
    case deletingForward
    /// Anything else (paste, cut, indent, newline, replacing the document): a step of its own.
    case other
}
