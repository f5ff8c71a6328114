/// Whether a multiline text view shows its placeholder: exactly when its text is empty and
/// no input method is composing in it.
///
/// `UITextView` has no placeholder, and the usual fix (hide a label on the text-did-change
/// notification) misses two cases: text set in code posts no notification, and an input
/// method composing the first character leaves the text momentarily empty while something
/// is on screen. Feed this state every change, from typing or from code, and every start and
/// end of composition; show the placeholder when ``isVisible`` says so.
///
/// ```swift
/// final class NotesView {
///     private var placeholder = PlaceholderState()
///
///     // Called from the text-did-change observation, after setting `text` in code, and
///     // when marked text begins or ends.
///     func textDidChange() {
///         if placeholder.update(text: textView.text, isComposing: textView.markedTextRange != nil) {
///             placeholderLabel.isHidden = !placeholder.isVisible
///         }
///     }
/// }
/// ```
///
/// The transitions return whether visibility changed, so a view only touches its label
/// when it has to.
public struct PlaceholderState: Hashable, Sendable {
    /// Whether the view's text is empty.
    public private(set) var isTextEmpty: Bool

    /// Whether an input method is composing (the view has marked text).
    public private(set) var isComposing: Bool

    /// Whether the placeholder is shown.
    public var isVisible: Bool {
        isTextEmpty && !isComposing
    }

    /// Creates the state of a view showing `text`.
    ///
    /// - Parameters:
    ///   - text: The view's text.
    ///   - isComposing: Whether an input method is composing in it.
    public init(text: String = "", isComposing: Bool = false) {
        isTextEmpty = text.isEmpty
        self.isComposing = isComposing
    }

    /// Takes in a new text, typed or set in code.
    ///
    /// - Parameter text: The view's text now.
    /// - Returns: Whether ``isVisible`` changed.
    @discardableResult
    public mutating func textDidChange(to text: String) -> Bool {
        update(text: text, isComposing: isComposing)
    }

    /// Takes in the start or end of an input method's composition.
    ///
    /// - Parameter isComposing: Whether the view has marked text now.
    /// - Returns: Whether ``isVisible`` changed.
    @discardableResult
    public mutating func compositionDidChange(isComposing: Bool) -> Bool {
        update(isTextEmpty: isTextEmpty, isComposing: isComposing)
    }

    /// Takes in the view's text and composition at once, as a text-did-change handler sees them.
    ///
    /// - Parameters:
    ///   - text: The view's text now.
    ///   - isComposing: Whether the view has marked text now.
    /// - Returns: Whether ``isVisible`` changed.
    @discardableResult
    public mutating func update(text: String, isComposing: Bool) -> Bool {
        update(isTextEmpty: text.isEmpty, isComposing: isComposing)
    }

    private mutating func update(isTextEmpty: Bool, isComposing: Bool) -> Bool {
        let wasVisible = isVisible
        self.isTextEmpty = isTextEmpty
        self.isComposing = isComposing
        return isVisible != wasVisible
    }
}
