#if canImport(UIKit)
import TextInput
import UIKit

/// Binds a `UITextField` to a property of a model through TextInput's `FieldBinding`, as the
/// field's delegate.
///
/// Every decision is the portable binding's; this class only translates UIKit's callbacks:
///
/// | UIKit | binding |
/// | --- | --- |
/// | `textFieldDidBeginEditing(_:)` | `beginEditing()` |
/// | `textField(_:shouldChangeCharactersIn:replacementString:)` | `replaceCharacters(in:with:)`: `.accept` returns `true`; `.replaced` moves the caret and returns `false`; `.refuse` returns `false` |
/// | `.editingChanged` | `fieldTextDidChange()`: input methods committing, dictation, autocorrection |
/// | `textFieldDidEndEditing(_:)` | `endEditing()` |
/// | the clear button | `clear()` |
/// | Return, or Done above a number pad | `returnKeyPressed()`, then the field resigns |
///
/// While an input method has marked text, the binding accepts every change untouched and
/// validates once composition ends.
///
/// The field gets a keyboard that fits the format (see `UIKeyboardType.suggested(for:)`), a clear
/// button while editing, and, for numeric formats, no autocorrection or spell checking. Number and
/// decimal pads have no Return key, so the field also gets a Done bar above them.
///
/// The field holds its delegate weakly: keep the binding in a property.
///
/// ```swift
/// private var quantityBinding: TextFieldBinding<Order, IntegerFormat>?
///
/// quantityBinding = TextFieldBinding(
///     textField: quantityField, model: order, keyPath: \.quantity,
///     format: IntegerFormat(range: 1...600), defaultValue: 1
/// )
/// ```
@MainActor
public final class TextFieldBinding<Model: ObservableModel, Format: FieldFormat>: NSObject, UITextFieldDelegate {
    /// The portable binding that makes every decision.
    public let binding: FieldBinding<Model, Format>

    /// The bound field; held weakly, as the field holds its delegate.
    public var textField: UITextField? {
        field.textField
    }

    private let field: TextFieldBoundField

    /// Binds a field to an optional property: an empty field means `nil`.
    ///
    /// - Parameters:
    ///   - textField: The field; it gets this object as its delegate.
    ///   - model: The object holding the property.
    ///   - keyPath: The optional property.
    ///   - format: How the field's text is edited and read.
    public convenience init(
        textField: UITextField,
        model: Model,
        keyPath: ReferenceWritableKeyPath<Model, Format.Value?>,
        format: Format
    ) {
        let field = TextFieldBoundField(textField)
        let binding = FieldBinding(field: field, model: model, keyPath: keyPath, format: format)
        self.init(textField: textField, field: field, binding: binding)
    }

    /// Binds a field to a non-optional property: an empty field means `defaultValue`.
    ///
    /// - Parameters:
    ///   - textField: The field; it gets this object as its delegate.
    ///   - model: The object holding the property.
    ///   - keyPath: The property.
    ///   - format: How the field's text is edited and read.
    ///   - defaultValue: What clearing the field sets the property to.
    public convenience init(
        textField: UITextField,
        model: Model,
        keyPath: ReferenceWritableKeyPath<Model, Format.Value>,
        format: Format,
        defaultValue: Format.Value
    ) {
        let field = TextFieldBoundField(textField)
        let binding = FieldBinding(field: field, model: model, keyPath: keyPath, format: format, defaultValue: defaultValue)
        self.init(textField: textField, field: field, binding: binding)
    }

    private init(textField: UITextField, field: TextFieldBoundField, binding: FieldBinding<Model, Format>) {
        self.field = field
        self.binding = binding
        super.init()
        configure(textField, for: binding.format)
    }

    // MARK: - UITextFieldDelegate

    public func textFieldDidBeginEditing(_ textField: UITextField) {
        binding.beginEditing()
    }

    public func textField(
        _ textField: UITextField,
        shouldChangeCharactersIn range: NSRange,
        replacementString string: String
    ) -> Bool {
        switch binding.replaceCharacters(in: range, with: string) {
        case .accept:
            return true
        case .replaced(_, let caretLocation):
            // The binding has already set the text; UIKit left the caret at the end.
            moveCaret(in: textField, to: caretLocation)
            return false
        case .refuse:
            return false
        }
    }

    public func textFieldDidEndEditing(_ textField: UITextField) {
        binding.endEditing()
    }

    public func textFieldShouldClear(_ textField: UITextField) -> Bool {
        // The binding empties the field itself; letting UIKit clear it too would report a second,
        // empty edit.
        binding.clear()
        return false
    }

    public func textFieldShouldReturn(_ textField: UITextField) -> Bool {
        binding.returnKeyPressed()
        textField.resignFirstResponder()
        // Let UIKit go on to send the field's primary action, for a form that moves to the next field.
        return true
    }

    // MARK: - Configuration

    private func configure(_ textField: UITextField, for format: Format) {
        textField.delegate = self
        textField.clearButtonMode = .whileEditing
        let keyboardType = UIKeyboardType.suggested(for: format)
        textField.keyboardType = keyboardType
        if keyboardType != .default {
            // Digits need no spelling help, and smart insertion would add spaces around a paste.
            textField.autocorrectionType = .no
            textField.spellCheckingType = .no
            textField.smartInsertDeleteType = .no
        }
        if keyboardType == .numberPad || keyboardType == .decimalPad {
            textField.inputAccessoryView = doneBar()
        }
        // A fixed identifier makes a second binding of the same field replace this action.
        let editingChanged = UIAction(identifier: UIAction.Identifier("PageScriptUIKit.TextFieldBinding.editingChanged")) { [weak self] _ in
            self?.binding.fieldTextDidChange()
        }
        textField.addAction(editingChanged, for: .editingChanged)
    }

    /// A bar with a Done button, the Return key that number and decimal pads lack.
    private func doneBar() -> UIToolbar {
        let bar = UIToolbar(frame: CGRect(x: 0, y: 0, width: 320, height: 44))
        let done = UIBarButtonItem(systemItem: .done, primaryAction: UIAction { [weak self] _ in
            guard let self, let textField = self.textField else { return }
            _ = self.textFieldShouldReturn(textField)
        })
        bar.items = [.flexibleSpace(), done]
        bar.sizeToFit()
        return bar
    }

    private func moveCaret(in textField: UITextField, to utf16Offset: Int) {
        guard let position = textField.position(from: textField.beginningOfDocument, offset: utf16Offset) else { return }
        textField.selectedTextRange = textField.textRange(from: position, to: position)
    }
}

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
