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

    /// The complete SGR sequence for this style. It always starts from a reset so the result
    /// does not depend on what the terminal had before.
    var sgrSequence: String {
        var parameters = ["0"]
        if attributes.contains(.bold) { parameters.append("1") }
        if attributes.contains(.dim) { parameters.append("2") }
        if attributes.contains(.italic) { parameters.append("3") }
        if attributes.contains(.underline) { parameters.append("4") }
        if attributes.contains(.reverse) { parameters.append("7") }
        if let foreground { parameters.append(foreground.sgrParameters(foreground: true)) }
        if let background { parameters.append(background.sgrParameters(foreground: false)) }
        return "\u{1B}[" + parameters.joined(separator: ";") + "m"
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
