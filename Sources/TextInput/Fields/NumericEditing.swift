import Foundation

/// The edit rule the numeric formats share: a deletion always applies; an insertion is first
/// filtered to what can belong in the field, a lone leading zero gives way to what is typed
/// after it, and the result must still be a number or a partial one that typing can complete.
protocol NumericEditing {
    /// What of `replacement` can be inserted (a paste filtered of grouping and currency), or
    /// `nil` when nothing sensible remains.
    func insertion(for replacement: String) -> String?
    /// Whether the field may hold `candidate`.
    func isAcceptable(_ candidate: String) -> Bool
}

extension NumericEditing {
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
