import Foundation

/// A field for a whole number (`Int`), optionally limited to a range.
///
/// While typing, the field accepts every text that is a number or can still become one:
/// "", "-", "-0", "007". Digits of any script are read as digits ("٤٢" types "42"), and the
/// minus sign may be any of its look-alikes (U+2212 "−" included).
///
/// It refuses:
/// - characters that cannot belong to an integer (letters, a second minus, a minus that is
///   not first, a decimal separator);
/// - a minus sign when the range has no negative values;
/// - a text past `Int.max` (9223372036854775807) or `Int.min`, checked explicitly;
/// - a text that no amount of further typing can bring into the range: with `1...600`,
///   "7000" is refused but "0" and "7" are accepted (they can become "70" or "170").
///
/// Pasted text is filtered: digit grouping, spaces and currency signs are dropped
/// ("1,234" gives "1234"; "12.00" gives "12"); a paste that is not one integer ("12.50",
/// "abc") is refused as a whole. Deleting is always accepted: a shorter text can only get
/// closer to a valid one.
///
/// ```swift
/// let format = IntegerFormat(range: 1...600)
/// format.applying("1,234", in: NSRange(location: 0, length: 0), to: "")  // nil: past 600
/// format.applying("450", in: NSRange(location: 0, length: 0), to: "")    // "450"
/// format.value(from: "007")                                              // 7
/// format.text(for: 7)                                                    // "7"
/// ```
public struct IntegerFormat: FieldFormat {
    /// The values the field may hold; `nil` allows every `Int`.
    public let range: ClosedRange<Int>?

    /// Creates an integer format.
    ///
    /// - Parameter range: The values the field may hold; `nil` allows every `Int`.
    ///   Negative numbers can be typed unless the range excludes them.
    public init(range: ClosedRange<Int>? = nil) {
        self.range = range
    }

    /// Whether a minus sign may be typed.
    private var allowsNegative: Bool {
        (range?.lowerBound ?? -1) < 0
    }

    /// The field's text after an edit, or `nil` when the edit is refused.
    ///
    /// - Parameters:
    ///   - replacement: The typed or pasted text; empty for a deletion.
    ///   - range: The replaced range of `text`, in UTF-16 code units.
    ///   - text: The field's text before the edit.
    /// - Returns: The new text; a pasted number appears without its formatting.
    public func applying(_ replacement: String, in range: NSRange, to text: String) -> String? {
        applyingNumericEdit(replacement, in: range, to: text)
    }

    /// The integer `text` stands for; `nil` when empty, partial ("-"), past `Int`'s limits
    /// or outside the range.
    ///
    /// - Parameter text: A field's text.
    /// - Returns: The value, with leading zeros ignored ("007" is 7).
    public func value(from text: String) -> Int? {
        guard let number = NumericText(text, allowsSeparator: false), number.hasDigits,
              let value = Self.integer(from: number)
        else { return nil }
        if let range, !range.contains(value) { return nil }
        return value
    }

    /// How an integer reads when the field is not being edited: plain ASCII digits.
    ///
    /// - Parameter value: The bound property's value.
    /// - Returns: The value in decimal, with a leading "-" when negative.
    public func text(for value: Int) -> String {
        String(value)
    }

    /// An integer takes no decimal separator.
    var allowsSeparator: Bool { false }

    /// What a paste inserts: its digits and sign, or `nil` when it is not one integer.
    func pastedInsertion(for replacement: String) -> String? {
        guard let pasted = PastedNumber(replacement, decimalSeparator: nil),
              pasted.fractionDigits?.allSatisfy({ $0 == 0 }) ?? true
        else { return nil }
        return (pasted.isNegative ? "-" : "") + pasted.integerDigits.map(String.init).joined()
    }

    /// Whether a whole text is an integer, or the start of one, that the range allows.
    func isAcceptable(_ candidate: String) -> Bool {
        guard let number = NumericText(candidate, allowsSeparator: false) else { return false }
        if number.isNegative && !allowsNegative { return false }
        guard let magnitude = number.integerMagnitude else { return false }
        let limit = number.isNegative ? UInt64(Int.min.magnitude) : UInt64(Int.max)
        guard magnitude <= limit else { return false }
        guard let range else { return true }
        if number.hasDigits, let value = Self.integer(from: number), range.contains(value) {
            return true
        }
        return canComplete(number, in: range)
    }

    /// Whether typing more digits (and a leading minus) can bring `number` into `range`.
    private func canComplete(_ number: NumericText, in range: ClosedRange<Int>) -> Bool {
        let digits = number.significantIntegerDigits
        if !number.isNegative, range.upperBound >= 0 {
            let lower = UInt64(max(range.lowerBound, 0))
            if IntegerRangeCompletion.canComplete(digits, magnitudesIn: lower, UInt64(range.upperBound)) {
                return true
            }
        }
        if range.lowerBound < 0 {
            // A negative value's magnitude runs from the upper bound's (or 0) to the lower bound's.
            let lower = range.upperBound < 0 ? UInt64(range.upperBound.magnitude) : 0
            return IntegerRangeCompletion.canComplete(digits, magnitudesIn: lower, UInt64(range.lowerBound.magnitude))
        }
        return false
    }

    /// The `Int` a number text stands for, or `nil` past `Int`'s limits.
    private static func integer(from number: NumericText) -> Int? {
        guard let magnitude = number.integerMagnitude else { return nil }
        if number.isNegative {
            guard magnitude <= UInt64(Int.min.magnitude) else { return nil }
            // Int.min's magnitude is one more than Int.max: build it without overflowing.
            return magnitude == UInt64(Int.min.magnitude) ? Int.min : -Int(magnitude)
        }
        guard magnitude <= UInt64(Int.max) else { return nil }
        return Int(magnitude)
    }
}

extension IntegerFormat: NumericEditing {}
