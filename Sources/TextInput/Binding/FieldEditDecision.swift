/// What a field should do with a proposed edit, as decided by ``FieldBinding``.
///
/// The three answers map onto UIKit's `textField(_:shouldChangeCharactersIn:replacementString:)`:
/// ``accept`` returns `true`; ``replaced(text:caretLocation:)`` returns `false` after moving the
/// caret (the binding has already set the text); ``refuse`` returns `false`.
public enum FieldEditDecision: Hashable, Sendable {
    /// Apply the edit exactly as proposed; the caret goes after the replacement.
    case accept

    /// The binding has set the field's text to `text`, which differs from the proposed edit
    /// (a filtered paste, a dropped leading zero). Do not apply the edit; put the caret at
    /// `caretLocation`, in UTF-16 code units.
    case replaced(text: String, caretLocation: Int)

    /// Refuse the edit: the text stays as it was.
    case refuse
}
