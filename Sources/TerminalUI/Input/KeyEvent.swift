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

/// A key as the terminal reports it, before modifiers.
///
/// Control and Alt combinations with letters arrive as ``character(_:)`` with modifiers, so
/// Ctrl-S is `.character("s")` with `.control`.
enum Key: Hashable, Sendable {
    case character(Character)
    case enter
    case tab
    case backTab
    case backspace
    case delete
    case insert
    case escape
    case up
    case down
    case left
    case right
    case home
    case end
    case pageUp
    case pageDown
    case function(Int)
}

/// The modifier keys held with a key, as far as the terminal can tell.
struct KeyModifiers: OptionSet, Hashable, Sendable {
    let rawValue: UInt8
    static let shift = KeyModifiers(rawValue: 1 << 0)
    static let alt = KeyModifiers(rawValue: 1 << 1)
    static let control = KeyModifiers(rawValue: 1 << 2)

    /// Decodes the xterm modifier parameter of a CSI sequence (`1;5C` is Ctrl-Right): the
    /// parameter is one more than a bit mask of shift (1), alt (2), control (4) and meta (8).
    init(xtermParameter: Int) {
        let mask = max(0, xtermParameter - 1)
        var modifiers: KeyModifiers = []
        if mask & 1 != 0 { modifiers.insert(.shift) }
        if mask & 2 != 0 || mask & 8 != 0 { modifiers.insert(.alt) }
        if mask & 4 != 0 { modifiers.insert(.control) }
        self = modifiers
    }

    init(rawValue: UInt8) {
        self.rawValue = rawValue
    }
}

/// What the key decoder produces from terminal bytes.
enum InputEvent: Hashable, Sendable {
    /// One key press.
    case key(KeyEvent)
    /// Text the terminal delivered between bracketed-paste markers, as one piece.
    case paste(String)
}
