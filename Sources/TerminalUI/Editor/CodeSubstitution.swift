/// Code mode: the typographic characters that keyboards, word processors and web pages put
/// into text, replaced by the ASCII a JavaScript engine expects.
///
/// A curly quote in a script is a syntax error and a non-breaking space is an invisible one,
/// and both arrive easily when code is copied from a web page or typed on a phone keyboard.
enum CodeSubstitution {
    /// Single curly quotes, double curly quotes, en and em dashes and non-breaking spaces.
    static func replacement(for scalar: Unicode.Scalar) -> Unicode.Scalar? {
        switch scalar.value {
        case 0x2018, 0x2019: return "'"
        case 0x201C, 0x201D: return "\""
        case 0x2013, 0x2014: return "-"
        case 0x00A0, 0x202F, 0x2007: return " "
        default: return nil
        }
    }

    /// The text with every substitution applied.
    static func apply(to text: String) -> String {
        guard text.unicodeScalars.contains(where: { replacement(for: $0) != nil }) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            result.append(replacement(for: scalar) ?? scalar)
        }
        return String(result)
    }
}
