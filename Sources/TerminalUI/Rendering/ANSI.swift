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

    /// Appends the sequence that moves the cursor to a zero-based column and row (CUP is
    /// one-based), as bytes.
    static func appendMoveCursor(x: Int, y: Int, to output: inout [UInt8]) {
        output.append(0x1B)
        output.append(UInt8(ascii: "["))
        appendDecimal(y + 1, to: &output)
        output.append(UInt8(ascii: ";"))
        appendDecimal(x + 1, to: &output)
        output.append(UInt8(ascii: "H"))
    }

    /// Appends a non-negative number's decimal digits.
    static func appendDecimal(_ value: Int, to output: inout [UInt8]) {
        if value >= 10 { appendDecimal(value / 10, to: &output) }
        output.append(UInt8(ascii: "0") + UInt8(value % 10))
    }

    /// Puts `text` on the terminal's clipboard (OSC 52); terminals without it ignore it.
    static func setClipboard(_ text: String) -> String {
        "\u{1B}]52;c;" + Data(text.utf8).base64EncodedString() + "\u{07}"
    }

    /// What the editor writes when it takes over the terminal. `EditorApp.exitSequence` undoes
    /// it; that one is a `StaticString` because a signal handler may have to write it.
    static let enterEditor = enterAlternateScreen + enableBracketedPaste + clearScreen
}
