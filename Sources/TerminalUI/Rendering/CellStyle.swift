/// The colours and attributes of one cell.
struct CellStyle: Hashable, Sendable {
    /// Text attributes that SGR can switch on.
    struct Attributes: OptionSet, Hashable, Sendable {
        let rawValue: UInt8
        static let bold = Attributes(rawValue: 1 << 0)
        static let dim = Attributes(rawValue: 1 << 1)
        static let italic = Attributes(rawValue: 1 << 2)
        static let underline = Attributes(rawValue: 1 << 3)
        static let reverse = Attributes(rawValue: 1 << 4)
    }

    var foreground: TerminalColor?
    var background: TerminalColor?
    var attributes: Attributes

    init(foreground: TerminalColor? = nil, background: TerminalColor? = nil, attributes: Attributes = []) {
        self.foreground = foreground
        self.background = background
        self.attributes = attributes
    }

    /// The terminal's own colours with no attributes.
    static let plain = CellStyle()

    /// Appends the complete SGR sequence for this style to `output`, as bytes (the renderer
    /// writes one at each change of style). It always starts from a reset so the result does
    /// not depend on what the terminal had before.
    func appendSGRSequence(to output: inout [UInt8]) {
        output.append(0x1B)
        output.append(UInt8(ascii: "["))
        output.append(UInt8(ascii: "0"))
        if attributes.contains(.bold) { output.append(contentsOf: ";1".utf8) }
        if attributes.contains(.dim) { output.append(contentsOf: ";2".utf8) }
        if attributes.contains(.italic) { output.append(contentsOf: ";3".utf8) }
        if attributes.contains(.underline) { output.append(contentsOf: ";4".utf8) }
        if attributes.contains(.reverse) { output.append(contentsOf: ";7".utf8) }
        if let foreground {
            output.append(UInt8(ascii: ";"))
            foreground.appendSGRParameters(foreground: true, to: &output)
        }
        if let background {
            output.append(UInt8(ascii: ";"))
            background.appendSGRParameters(foreground: false, to: &output)
        }
        output.append(UInt8(ascii: "m"))
    }

    /// This style as a terminal without colours shows it: the attributes alone, and reverse
    /// video for a background, which marks a selection or a match.
    var withoutColors: CellStyle {
        CellStyle(attributes: background == nil ? attributes : attributes.union(.reverse))
    }

    /// This style with other attributes added.
    func adding(_ extra: Attributes) -> CellStyle {
        var copy = self
        copy.attributes.formUnion(extra)
        return copy
    }

    /// This style with another background.
    func withBackground(_ color: TerminalColor?) -> CellStyle {
        var copy = self
        copy.background = color
        return copy
    }
}
