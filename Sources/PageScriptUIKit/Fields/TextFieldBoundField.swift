#if canImport(UIKit)
import TextInput
import UIKit

/// A `UITextField` as `FieldBinding` sees it.
///
/// `UITextField` cannot conform to `BoundField` itself: its `text` is optional and settable to
/// `nil`, while a binding works with a plain string. The adapter holds the field weakly, as the
/// binding holds the adapter's owner, so no side keeps the field alive.
@MainActor
final class TextFieldBoundField: BoundField {
    private(set) weak var textField: UITextField?

    init(_ textField: UITextField) {
        self.textField = textField
    }

    /// The field's text; `nil` reads as empty. Writing does not send `.editingChanged`, so the
    /// binding's own writes do not come back to it as edits.
    var text: String {
        get { textField?.text ?? "" }
        set { textField?.text = newValue }
    }

    /// Whether an input method is composing in the field (it has marked text).
    var hasMarkedText: Bool {
        textField?.markedTextRange != nil
    }
}
#endif
