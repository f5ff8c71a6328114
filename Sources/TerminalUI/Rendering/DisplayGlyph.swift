import SystemSupport

/// How one document character is drawn: as itself, as spaces up to a tab stop, or as a
/// visible escape when it is a control or invisible character.
///
/// Width calculations for the cursor and for drawing both come from here, so the cursor
/// always lands where the character was drawn.
enum DisplayGlyph: Hashable, Sendable {
    /// A printable character that takes `width` (1 or 2) cells.
    case glyph(Character, width: Int)
    /// A tab: spaces up to the next tab stop.
    case tab(width: Int)
    /// A control or invisible character, drawn as its escape (`\e`, `\u{200B}`).
    case escaped(String)

    /// The glyph for `character` when it starts at display column `column`.
    init(_ character: Character, atColumn column: Int, tabWidth: Int) {
        if let byte = character.singleByte, byte >= 0x20, byte < 0x7F {
            self = .glyph(character, width: 1)
            return
        }
        if character == "\t" {
            let stop = max(1, tabWidth)
            self = .tab(width: stop - column % stop)
            return
        }
        if !TerminalSafeText.isSafe(character) {
            var escaped = ""
            TerminalSafeText.appendEscaped(character, to: &escaped)
            self = .escaped(escaped)
            return
        }
        let width = GlyphWidth.columns(of: character)
        if width == 0 {
            self = .escaped(character.unicodeScalars.map { TerminalSafeText.escape(for: $0) }.joined())
        } else {
            self = .glyph(character, width: width)
        }
    }

    var width: Int {
        switch self {
        case .glyph(_, let width): return width
        case .tab(let width): return width
        case .escaped(let text): return text.count
        }
    }
}
