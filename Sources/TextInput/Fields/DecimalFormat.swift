import Foundation

/// A field for a decimal number (`Decimal`, never `Double`), in a locale, optionally with a
/// cap on fraction digits and a range.
///
/// While typing, both "." and "," are accepted as the decimal separator, whatever the
/// locale: a German user on an English keyboard must not be stuck. Partial texts are
/// accepted ("", "-", "1.", "1,", "-0", ".5"); ``value(from:)`` reads "1." as no value yet.
/// When the field is not being edited, ``text(for:)`` shows the locale's separator and no
/// digit grouping, so the text stays editable as it is shown.
///
/// It refuses:
/// - characters that cannot belong (letters, a second separator, a minus that is not first);
/// - a minus sign when the range has no negative values;
/// - more fraction digits than `maximumFractionDigits`;
/// - more than 38 significant digits, the most a `Decimal` holds exactly;
/// - a text whose integer part is already past the range: typing more digits only makes it
///   larger ("2000" in `0...100`; "0" and "0.5" in `0.5...1` are fine).
///
/// Pasted text is read in the locale: "1,234.50" in en_US and "1.234,50" in de_DE both give
/// 1234.50; grouping, spaces and currency signs are dropped; trailing zeros past the cap are
/// dropped ("1.500" with two fraction digits gives "1.50"); other excess digits refuse the paste.
///
/// ```swift
/// let format = DecimalFormat(locale: Locale(identifier: "de_DE"), maximumFractionDigits: 2)
/// format.applying(".", in: NSRange(location: 1, length: 0), to: "3")   // "3." (both separators)
/// format.value(from: "3.25")                                           // 3.25
/// format.text(for: 3.25)                                              // "3,25"
/// ```
public struct DecimalFormat: FieldFormat {
    /// The locale whose decimal separator is shown and preferred when reading pasted numbers.
    public let locale: Locale

    /// The most digits after the separator; `nil` for no cap.
    public let maximumFractionDigits: Int?

    /// The values the field may hold; `nil` allows every value.
    public let range: ClosedRange<Decimal>?

    /// The separator shown by ``text(for:)``: the locale's when the field can read it back.
    private let displaySeparator: String

    /// The locale's separator as "." or ",", for reading pasted numbers.
    private let localeSeparator: Unicode.Scalar?

    /// The most significant digits a `Decimal` holds exactly (its significand is 128 bits).
    private static let maximumSignificantDigits = 38

    /// Creates a decimal format.
    ///
    /// - Parameters:
    ///   - locale: The locale whose decimal separator is shown; the current one by default.
    ///   - maximumFractionDigits: The most digits after the separator; `nil` for no cap,
    ///     0 for whole numbers only.
    ///   - range: The values the field may hold; negative numbers can be typed unless the
    ///     range excludes them.
    public init(locale: Locale = .current, maximumFractionDigits: Int? = nil, range: ClosedRange<Decimal>? = nil) {
        self.locale = locale
        self.maximumFractionDigits = maximumFractionDigits.map { max($0, 0) }
        self.range = range
        localeSeparator = NumericSymbol.separator(of: locale.decimalSeparator)
        displaySeparator = localeSeparator == nil ? "." : (locale.decimalSeparator ?? ".")
    }

    /// Whether the field takes a fraction, and so a decimal separator.
    var allowsSeparator: Bool {
        maximumFractionDigits != 0
    }

    private var allowsNegative: Bool {
        range.map { $0.lowerBound < 0 } ?? true
    }

    /// The field's text after an edit, or `nil` when the edit is refused.
    ///
    /// - Parameters:
    ///   - replacement: The typed or pasted text; empty for a deletion.
    ///   - range: The replaced range of `text`, in UTF-16 code units.
    ///   - text: The field's text before the edit.
    /// - Returns: The new text; a typed separator is kept as typed, a pasted number appears
    ///   with the locale's separator and without grouping.
    public func applying(_ replacement: String, in range: NSRange, to text: String) -> String? {
        applyingNumericEdit(replacement, in: range, to: text)
    }

    /// The decimal `text` stands for; `nil` when empty, partial ("-", "1."), too precise or
    /// outside the range.
    ///
    /// - Parameter text: A field's text, with "." or "," (or the locale's separator).
    /// - Returns: The exact decimal value; ".5" reads as 0.5.
    public func value(from text: String) -> Decimal? {
        guard let number = NumericText(text, allowsSeparator: allowsSeparator),
              isWithinDigitLimits(number),
              number.fractionDigits.map({ !$0.isEmpty }) ?? !number.integerDigits.isEmpty
        else { return nil }
        let value = Self.decimal(from: number)
        if let range, !range.contains(value) { return nil }
        return value
    }

    /// How a decimal reads when the field is not being edited.
    ///
    /// The value is rounded half away from zero to ``maximumFractionDigits`` when it has
    /// more, and shown with the locale's decimal separator, no grouping, no trailing zeros.
    ///
    /// - Parameter value: The bound property's value.
    /// - Returns: The text to show, e.g. "1234,5" in de_DE; empty for NaN.
    public func text(for value: Decimal) -> String {
        guard !value.isNaN else { return "" }
        var shown = value
        if let maximumFractionDigits {
            var source = value
            NSDecimalRound(&shown, &source, maximumFractionDigits, .plain)
        }
        let text = shown.description
        return displaySeparator == "." ? text : text.replacingOccurrences(of: ".", with: displaySeparator)
    }

    /// What a paste inserts: the number without its formatting, its fraction within the cap.
    func pastedInsertion(for replacement: String) -> String? {
        guard var pasted = PastedNumber(replacement, decimalSeparator: localeSeparator) else { return nil }
        if let cap = maximumFractionDigits, var fraction = pasted.fractionDigits, fraction.count > cap {
            // Zeros past the cap carry no value; any other digit would be lost, so refuse.
            while fraction.count > cap, fraction.last == 0 { fraction.removeLast() }
            guard fraction.count <= cap else { return nil }
            pasted.fractionDigits = cap == 0 ? nil : fraction
        }
        var insertion = pasted.isNegative ? "-" : ""
        insertion += pasted.integerDigits.map(String.init).joined()
        if let fraction = pasted.fractionDigits {
            insertion += displaySeparator + fraction.map(String.init).joined()
        }
        return insertion
    }

    /// Whether a whole text is a decimal, or the start of one, that the format allows.
    func isAcceptable(_ candidate: String) -> Bool {
        guard let number = NumericText(candidate, allowsSeparator: allowsSeparator),
              isWithinDigitLimits(number)
        else { return false }
        if number.isNegative && !allowsNegative { return false }
        guard let range else { return true }
        return canComplete(number, in: range)
    }

    private func isWithinDigitLimits(_ number: NumericText) -> Bool {
        let fractionCount = number.fractionDigits?.count ?? 0
        if let maximumFractionDigits, fractionCount > maximumFractionDigits { return false }
        return number.significantIntegerDigits.count + fractionCount <= Self.maximumSignificantDigits
    }

    /// Whether typing more can bring `number` into `range`.
    ///
    /// Inserting digits into the integer part only makes the magnitude larger, and inserting
    /// zeros at the front of the fraction makes it as small as the cap allows. So the
    /// smallest magnitude within reach is the integer part plus that smallest fraction, and
    /// the text can be completed when that magnitude still fits under the range's far end
    /// (for a minus sign, typed or still to type, the lower bound).
    private func canComplete(_ number: NumericText, in range: ClosedRange<Decimal>) -> Bool {
        let integerPart = Self.decimal(digits: Array(number.significantIntegerDigits), fractionCount: 0, isNegative: false)
        let fraction = number.fractionDigits ?? []
        var smallest = integerPart
        // Without a cap, zeros can push the fraction as close to 0 as wanted, but never to 0.
        var isStrict = false
        if fraction.contains(where: { $0 != 0 }) {
            if let cap = maximumFractionDigits {
                smallest += Self.decimal(digits: fraction, fractionCount: cap, isNegative: false)
            } else {
                isStrict = true
            }
        }
        func fits(under bound: Decimal) -> Bool {
            isStrict ? smallest < bound : smallest <= bound
        }
        if !number.isNegative, range.upperBound >= 0, fits(under: range.upperBound) {
            return true
        }
        return range.lowerBound < 0 && fits(under: -range.lowerBound)
    }

    /// The exact decimal of a number text.
    ///
    /// Built from the digits directly (19 at a time in `UInt64`) rather than through
    /// `Decimal(string:)`, which depends on a locale and costs a parse per keystroke.
    private static func decimal(from number: NumericText) -> Decimal {
        let fraction = number.fractionDigits ?? []
        return decimal(
            digits: Array(number.significantIntegerDigits) + fraction,
            fractionCount: fraction.count,
            isNegative: number.isNegative
        )
    }

    /// The decimal whose digits are `digits` with the last `fractionCount` after the point.
    private static func decimal(digits: [UInt8], fractionCount: Int, isNegative: Bool) -> Decimal {
        let chunk = 19
        var significand = Decimal(0)
        var start = 0
        while start < digits.count {
            let end = min(start + chunk, digits.count)
            let part = NumericText.magnitude(of: digits[start..<end]) ?? 0
            significand = significand * Decimal(sign: .plus, exponent: end - start, significand: 1) + Decimal(part)
            start = end
        }
        // A negative zero is not a Decimal (its bit pattern is NaN): zero has no sign.
        let sign: FloatingPointSign = isNegative && !significand.isZero ? .minus : .plus
        return Decimal(sign: sign, exponent: -fractionCount, significand: significand)
    }
}

extension DecimalFormat: NumericEditing {}
