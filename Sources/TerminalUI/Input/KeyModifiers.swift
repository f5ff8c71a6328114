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
