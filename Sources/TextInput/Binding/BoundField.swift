/// A text field as a ``FieldBinding`` sees it: its text, and whether an input method is
/// composing in it.
///
/// The binding never names a toolkit. A `UITextField` adapter, a terminal form's field and a
/// test double all conform the same way.
///
/// ```swift
/// final class TerminalField: BoundField {
///     var text = ""
///     var hasMarkedText: Bool { false }  // a terminal has no input method composing in place
/// }
/// ```
@MainActor
public protocol BoundField: AnyObject {
    /// The text the field shows; the binding writes it only when it differs.
    var text: String { get set }

    /// Whether an input method is composing text in place (UIKit's `markedTextRange != nil`).
    ///
    /// While it is, the binding accepts every change and validates when composition ends.
    var hasMarkedText: Bool { get }
}
