/// A number field's text read as a sign, integer digits and fraction digits.
///
/// The field's text is only ever what a format accepted (or what ``FieldFormat/text(for:)``
/// wrote), so this reader is strict: one leading minus, digits, and at most one separator
/// when the format allows fractions. Anything else is not a number text.
struct NumericText {
    /// Whether the text starts with a minus sign.
    var isNegative = false
    /// The digits before the separator, most significant first, leading zeros included.
    var integerDigits: [UInt8] = []
    /// The digits after the separator; `nil` when the text has no separator.
    var fractionDigits: [UInt8]?

    /// Reads `text`, or fails when it cannot be (part of) a number.
    ///
    /// - Parameters:
    ///   - text: A field's text.
    ///   - allowsSeparator: Whether one decimal separator may appear.
    init?(_ text: String, allowsSeparator: Bool) {
        var isFirst = true
        for scalar in text.unicodeScalars {
            defer { isFirst = false }
            switch NumericSymbol(scalar) {
            case let .digit(value):
                if fractionDigits == nil {
                    integerDigits.append(value)
                } else {
                    fractionDigits?.append(value)
                }
            case .minus where isFirst:
                isNegative = true
            case .separator where allowsSeparator && fractionDigits == nil:
                fractionDigits = []
            default:
                return nil
            }
        }
    }

    /// Whether any digit was typed, before or after the separator.
    var hasDigits: Bool {
        !integerDigits.isEmpty || !(fractionDigits?.isEmpty ?? true)
    }

    /// The integer digits without their leading zeros.
    var significantIntegerDigits: ArraySlice<UInt8> {
        integerDigits.drop { $0 == 0 }
    }

    /// The integer part's magnitude, or `nil` when it does not fit in `UInt64`.
    var integerMagnitude: UInt64? {
        Self.magnitude(of: significantIntegerDigits)
    }

    /// The value of a run of digits, or `nil` when it does not fit in `UInt64`.
    static func magnitude(of digits: some Collection<UInt8>) -> UInt64? {
        var result: UInt64 = 0
        for digit in digits {
            // Overflow is checked explicitly: UInt64 holds 18446744073709551615, and a field
            // must refuse a keystroke past it rather than trap or wrap around.
            let (shifted, overflowTimes) = result.multipliedReportingOverflow(by: 10)
            let (sum, overflowPlus) = shifted.addingReportingOverflow(UInt64(digit))
            guard !overflowTimes, !overflowPlus else { return nil }
            result = sum
        }
        return result
    }
}
