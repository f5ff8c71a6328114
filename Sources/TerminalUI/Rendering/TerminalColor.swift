/// A terminal colour: one of the sixteen palette colours, a 256-colour index or true colour.
///
/// The palette colours follow the user's terminal theme, so the editor uses them for its
/// chrome and syntax colours; the other two exist for hosts that need an exact colour.
enum TerminalColor: Hashable, Sendable {
    /// A palette colour 0–15 (0–7 normal, 8–15 bright).
    case palette(UInt8)
    /// An entry of the 256-colour table.
    case indexed(UInt8)
    /// A 24-bit colour.
    case rgb(UInt8, UInt8, UInt8)

    static let black = TerminalColor.palette(0)
    static let red = TerminalColor.palette(1)
    static let green = TerminalColor.palette(2)
    static let yellow = TerminalColor.palette(3)
    static let blue = TerminalColor.palette(4)
    static let magenta = TerminalColor.palette(5)
    static let cyan = TerminalColor.palette(6)
    static let white = TerminalColor.palette(7)
    static let brightBlack = TerminalColor.palette(8)
    static let brightRed = TerminalColor.palette(9)
    static let brightGreen = TerminalColor.palette(10)
    static let brightYellow = TerminalColor.palette(11)
    static let brightBlue = TerminalColor.palette(12)
    static let brightMagenta = TerminalColor.palette(13)
    static let brightCyan = TerminalColor.palette(14)
    static let brightWhite = TerminalColor.palette(15)

    /// Appends the SGR parameters selecting this colour as foreground or background to `output`.
    func appendSGRParameters(foreground: Bool, to output: inout [UInt8]) {
        switch self {
        case .palette(let index):
            let value = Int(index & 0x0F)
            ANSI.appendDecimal(value < 8 ? (foreground ? 30 : 40) + value : (foreground ? 90 : 100) + value - 8, to: &output)
        case .indexed(let index):
            output.append(contentsOf: (foreground ? "38;5;" : "48;5;").utf8)
            ANSI.appendDecimal(Int(index), to: &output)
        case .rgb(let red, let green, let blue):
            output.append(contentsOf: (foreground ? "38;2;" : "48;2;").utf8)
            ANSI.appendDecimal(Int(red), to: &output)
            output.append(UInt8(ascii: ";"))
            ANSI.appendDecimal(Int(green), to: &output)
            output.append(UInt8(ascii: ";"))
            ANSI.appendDecimal(Int(blue), to: &output)
        }
    }
}
