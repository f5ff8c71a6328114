/// What the key decoder produces from terminal bytes.
enum InputEvent: Hashable, Sendable {
    /// One key press.
    case key(KeyEvent)
    /// Text the terminal delivered between bracketed-paste markers, as one piece.
    case paste(String)
}
