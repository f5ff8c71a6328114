/// How one Unicode scalar typed or pasted into a number field is read.
///
/// Keyboards and pasteboards deliver more than ASCII: Arabic-Indic and full-width digits,
/// the minus sign U+2212, narrow no-break spaces between digit groups, currency signs.
/// Reading them here lets the formats keep what a person meant and refuse the rest.
enum NumericSymbol: Equatable {
    /// A decimal digit of any script, as its value 0...9.
    case digit(UInt8)
    /// A hyphen-minus or one of its look-alikes.
    case minus
    /// A plus sign, which a pasted number may carry.
    case plus
    /// "." or "," (or a full-width or Arabic form of one): a decimal or a grouping separator.
    case separator(Unicode.Scalar)
    /// A mark that only ever groups digits: apostrophes, underscores, the Arabic thousands separator.
    case groupingMark
    /// A space of any width, which groups digits inside a number and is trimmed around it.
    case space
    /// A line break or tab, trimmed around a pasted number.
    case lineBreak
    /// A currency sign, dropped from pasted amounts.
    case currency
    /// Anything else: letters, other punctuation, emoji.
    case other

    init(_ scalar: Unicode.Scalar) {
        switch scalar {
        case "0"..."9":
            self = .digit(UInt8(scalar.value - 0x30))
        case "-", "\u{2012}", "\u{2013}", "\u{2212}", "\u{FE63}", "\u{FF0D}":
            self = .minus
        case "+", "\u{FF0B}":
            self = .plus
        case ".", ",":
            self = .separator(scalar)
        case "\u{FF0E}", "\u{066B}":
            // Full-width full stop and the Arabic decimal separator read as ".".
            self = .separator(".")
        case "\u{FF0C}", "\u{060C}":
            self = .separator(",")
        case "'", "\u{2019}", "_", "\u{066C}", "\u{02BC}":
            self = .groupingMark
        case " ", "\u{00A0}", "\u{2007}", "\u{2009}", "\u{202F}", "\u{3000}":
            self = .space
        case "\n", "\r", "\t", "\u{0085}", "\u{2028}", "\u{2029}":
            self = .lineBreak
        case "$":
            self = .currency
        default:
            self = Self.classifyNonASCII(scalar)
        }
    }

    /// The ASCII separator a locale's decimal separator is read as, when it is one.
    static func separator(of string: String?) -> Unicode.Scalar? {
        guard let string, string.unicodeScalars.count == 1, let scalar = string.unicodeScalars.first,
              case let .separator(normalized) = NumericSymbol(scalar)
        else { return nil }
        return normalized
    }

    private static func classifyNonASCII(_ scalar: Unicode.Scalar) -> NumericSymbol {
        guard !scalar.isASCII else { return .other }
        let properties = scalar.properties
        if properties.numericType == .decimal, let value = properties.numericValue, value >= 0, value <= 9 {
            return .digit(UInt8(value))
        }
        if properties.generalCategory == .currencySymbol {
            return .currency
        }
        if properties.generalCategory == .spaceSeparator {
            return .space
        }
        return .other
    }
}
