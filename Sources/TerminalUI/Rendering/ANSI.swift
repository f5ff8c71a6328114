import Foundation

/// The escape sequences the terminal layer writes, in one place.
enum ANSI {
    static let resetStyle = "\u{1B}[0m"
    static let clearScreen = "\u{1B}[2J"
    static let showCursor = "\u{1B}[?25h"
    static let hideCursor = "\u{1B}[?25l"
    static let enterAlternateScreen = "\u{1B}[?1049h"
    static let leaveAlternateScreen = "\u{1B}[?1049l"
    static let enableBracketedPaste = "\u{1B}[?2004h"
    static let disableBracketedPaste = "\u{1B}[?2004l"

    /// Moves the cursor to a zero-based column and row (CUP is one-based).
    static func moveCursor(x: Int, y: Int) -> String {
        "\u{1B}[\(y + 1);\(x + 1)H"
    }

    /// Puts `text` on the terminal's clipboard (OSC 52); terminals without it ignore it.
    static func setClipboard(_ text: String) -> String {
        "\u{1B}]52;c;" + Data(text.utf8).base64EncodedString() + "\u{07}"
    }

    /// What the editor writes when it takes over the terminal. `EditorApp.exitSequence` undoes
    /// it; that one is a `StaticString` because a signal handler may have to write it.
    static let enterEditor = enterAlternateScreen + enableBracketedPaste + clearScreen
}
