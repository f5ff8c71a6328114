import Foundation

/// The edit rule the numeric formats share: a deletion always applies; an insertion is first
/// filtered to what can belong in the field, a lone leading zero gives way to what is typed
/// after it, and the result must still be a number or a partial one that typing can complete.
protocol NumericEditing {
    /// Whether a typed "." or "," may go in: the field takes a fraction.
    var allowsSeparator: Bool { get }
    /// What of a pasted or autofilled `replacement` can be inserted (filtered of grouping and
    /// currency), or `nil` when nothing sensible remains.
    func pastedInsertion(for replacement: String) -> String?
    /// Whether the field may hold `candidate`.
    func isAcceptable(_ candidate: String) -> Bool
}

extension NumericEditing {
    /// What `replacement` inserts: one typed character read as an ASCII digit (of any
    /// script), a minus (of any look-alike) or, where the field takes one, a separator; more
    /// than one, as a paste. `nil` when it cannot belong.
    func insertion(for replacement: String) -> String? {
        let scalars = replacement.unicodeScalars
        guard scalars.count == 1, let scalar = scalars.first else { return pastedInsertion(for: replacement) }
        switch NumericSymbol(scalar) {
        case let .digit(value): return String(value)
        case .minus: return "-"
        case let .separator(separator) where allowsSeparator: return String(separator)
        default: return nil
        }
    }

    /// ``FieldFormat/applying(_:in:to:)`` for a numeric format.
    func applyingNumericEdit(_ replacement: String, in range: NSRange, to text: String) -> String? {
        guard let bounds = try? text.indexRange(of: range) else { return nil }
        guard !replacement.isEmpty else {
            var result = text
            result.removeSubrange(bounds)
            return result
        }
        guard let insertion = insertion(for: replacement) else { return nil }
        var candidate = text
        candidate.replaceSubrange(bounds, with: insertion)
        candidate = LoneZero.collapsed(candidate, before: text, editRange: range)
        return isAcceptable(candidate) ? candidate : nil
    }
}

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
