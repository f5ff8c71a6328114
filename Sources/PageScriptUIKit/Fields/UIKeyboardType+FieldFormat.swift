#if canImport(UIKit)
import TextInput
import UIKit

extension UIKeyboardType {
    /// The keyboard that fits a field format.
    ///
    /// | format | keyboard |
    /// | --- | --- |
    /// | `IntegerFormat` whose range has no negative values | `.numberPad` |
    /// | `DecimalFormat` with no negative values | `.decimalPad` (`.numberPad` for zero fraction digits) |
    /// | either, allowing negative values | `.numbersAndPunctuation`: the pads have no minus key |
    /// | `PatternListFormat` | `.URL` |
    /// | anything else | `.default` |
    ///
    /// The keyboard only helps: an iPad shows its full keyboard for every pad, and pastes bring
    /// any character, so the format still decides each edit.
    ///
    /// - Parameter format: The format a field is bound with.
    /// - Returns: The keyboard type to give the field.
    public static func suggested(for format: some FieldFormat) -> UIKeyboardType {
        switch format {
        case let integer as IntegerFormat:
            let allowsNegative = (integer.range?.lowerBound ?? -1) < 0
            return allowsNegative ? .numbersAndPunctuation : .numberPad
        case let decimal as DecimalFormat:
            let allowsNegative = decimal.range.map { $0.lowerBound < 0 } ?? true
            if allowsNegative {
                return .numbersAndPunctuation
            }
            return decimal.maximumFractionDigits == 0 ? .numberPad : .decimalPad
        case is PatternListFormat:
            return .URL
        default:
            return .default
        }
    }
}
#endif
