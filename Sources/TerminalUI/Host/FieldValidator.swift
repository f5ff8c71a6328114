import Foundation

/// Checks a form field as it is typed and says what is wrong with its value.
///
/// ``applyEdit`` sees every keystroke, paste and deletion as a replacement of a UTF-16 range
/// (the shape of `TextInput`'s `FieldFormat.applying(_:in:to:)`, so a field format plugs in
/// directly). It returns the field's new text, possibly filtered, or `nil` to refuse the
/// keystroke, which then does nothing. ``problem`` explains, while the text is not yet
/// acceptable, why; the form shows the reason under the field and will not submit.
///
/// ```swift
/// let digitsOnly = FieldValidator(
///     applyEdit: { replacement, range, text in
///         replacement.allSatisfy(\.isNumber) ? FieldValidator.replacing(range, in: text, with: replacement) : nil
///     },
///     problem: { $0.isEmpty ? "Enter a number" : nil }
/// )
/// ```
public struct FieldValidator: Sendable {
    /// Applies an edit: the replacement text, the UTF-16 range it replaces, the current text.
    /// Returns the new text, or `nil` to refuse the edit.
    public var applyEdit: @Sendable (_ replacement: String, _ range: NSRange, _ text: String) -> String?
    /// Why the text is not acceptable, or `nil` when it is; several reasons go on lines of
    /// their own.
    public var problem: @Sendable (_ text: String) -> String?

    /// Creates a validator from an edit filter and a problem check.
    ///
    /// - Parameters:
    ///   - applyEdit: The keystroke filter; `nil` applies every edit unchanged.
    ///   - problem: The value check; `nil` accepts every value.
    public init(
        applyEdit: (@Sendable (_ replacement: String, _ range: NSRange, _ text: String) -> String?)? = nil,
        problem: (@Sendable (_ text: String) -> String?)? = nil
    ) {
        self.applyEdit = applyEdit ?? { replacement, range, text in
            FieldValidator.replacing(range, in: text, with: replacement)
        }
        self.problem = problem ?? { _ in nil }
    }

    /// Accepts every edit and every value.
    public static let acceptingAnything = FieldValidator()

    /// Accepts every edit; a value that is empty or only spaces is a problem.
    public static let requiringText = FieldValidator(problem: { text in
        text.trimmingCharacters(in: .whitespaces).isEmpty ? "Give the script a name." : nil
    })

    /// The plain edit: `text` with `range` replaced, or `nil` when the range is not valid in
    /// `text` (out of bounds, or splitting a surrogate pair).
    public static func replacing(_ range: NSRange, in text: String, with replacement: String) -> String? {
        guard let swiftRange = Range(range, in: text) else { return nil }
        return text.replacingCharacters(in: swiftRange, with: replacement)
    }

    /// A validator for a list of match patterns typed in one field, separated by spaces or
    /// commas: `check` receives each pattern and returns why it is invalid, or `nil`. Every
    /// invalid pattern is reported, one per line, so the form can show them all. An empty list
    /// is a problem unless `allowingNone` is set.
    ///
    /// ```swift
    /// let patterns = FieldValidator.patternList { pattern in
    ///     (try? MatchPattern(pattern)) == nil ? "not a valid match pattern" : nil
    /// }
    /// ```
    public static func patternList(allowingNone: Bool = false,
                                   _ check: @escaping @Sendable (_ pattern: String) -> String?) -> FieldValidator {
        FieldValidator(problem: { text in
            let patterns = splitPatterns(text)
            if patterns.isEmpty {
                return allowingNone ? nil : "Add at least one match pattern, or choose “on demand”."
            }
            let problems = patterns.compactMap { pattern in check(pattern).map { "\(pattern): \($0)" } }
            return problems.isEmpty ? nil : problems.joined(separator: "\n")
        })
    }

    /// The patterns of a pattern-list field.
    public static func splitPatterns(_ text: String) -> [String] {
        text.split(whereSeparator: { $0.isWhitespace || $0 == "," }).map(String.init)
    }
}
