/// Makes text from a web page safe to show on a terminal.
///
/// A page's title or a script's output can hold escape sequences that would move the cursor,
/// rewrite the screen, set the window title or worse. Every control character is shown as a
/// visible escape instead, and characters that reorder or hide text are made visible too.
public enum TerminalSafeText {
    /// `text` with every C0 control, DEL, C1 control, bidirectional override or isolate,
    /// zero-width character and line or paragraph separator replaced by a visible escape
    /// (`\n`, `\t`, `\e`, `\u{9B}`); printable text is unchanged.
    public static func escaped(_ text: String) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0A: output += "\\n"
            case 0x0D: output += "\\r"
            case 0x09: output += "\\t"
            case 0x1B: output += "\\e"
            case 0x5C: output += "\\\\"
            case 0x00...0x1F, 0x7F...0x9F, 0x200B...0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2060...0x2069, 0xFEFF:
                output += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default:
                output.unicodeScalars.append(scalar)
            }
        }
        return output
    }
}
