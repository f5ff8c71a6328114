import Foundation

/// Drops the lone zero a number field shows when digits are typed after it.
///
/// A non-optional number property shows "0" before anyone types. Typing "5" after it should
/// give "5", not "05": the zero was a placeholder for "no value yet", not a digit the person
/// typed. Only that case is rewritten; "0." and "0,5" keep their zero, and zeros typed
/// elsewhere stay until editing ends (when "007" is shown as "7").
enum LoneZero {
    /// `candidate` without the zero that `before` consisted of, when an insertion at the end
    /// of a text "0" or "-0" put a digit right after it.
    static func collapsed(_ candidate: String, before: String, editRange: NSRange) -> String {
        guard before == "0" || before == "-0",
              editRange.length == 0, editRange.location == before.utf16.count
        else { return candidate }
        let zeroOffset = before.utf16.count - 1
        let scalars = Array(candidate.unicodeScalars)
        guard scalars.count > zeroOffset + 1, scalars[zeroOffset] == "0",
              case .digit = NumericSymbol(scalars[zeroOffset + 1])
        else { return candidate }
        var result = String.UnicodeScalarView(scalars[..<zeroOffset])
        result.append(contentsOf: scalars[(zeroOffset + 1)...])
        return String(result)
    }
}
