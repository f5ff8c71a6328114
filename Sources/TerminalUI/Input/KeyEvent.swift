/// A key press: the key and the modifiers held with it.
struct KeyEvent: Hashable, Sendable {
    var key: Key
    var modifiers: KeyModifiers

    init(_ key: Key, _ modifiers: KeyModifiers = []) {
        self.key = key
        self.modifiers = modifiers
    }

    /// Ctrl plus a letter, the way the editor's commands are bound.
    static func control(_ letter: Character) -> KeyEvent {
        KeyEvent(.character(letter), .control)
    }
}
