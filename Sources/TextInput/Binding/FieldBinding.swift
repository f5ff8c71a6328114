import Foundation

/// Binds a text field to a property of a model object, through a ``FieldFormat``.
///
/// The binding keeps the field and the property in step, in both directions:
///
/// - **Begin editing** (``beginEditing()``): the field is in charge. Model changes no longer
///   reach it, so nobody's keystrokes are overwritten.
/// - **Each keystroke** (``replaceCharacters(in:with:)``): the format accepts, filters or
///   refuses the edit. An accepted text that stands for a value updates the property at once;
///   an empty text resets it; a partial text ("-", "1.") leaves it as it is.
/// - **End editing** (``endEditing()``): the field shows the property again, normalised
///   ("007" shows as "7"); a partial "1." commits 1 first.
/// - **Clear** (``clear()``): the property becomes `nil`, or its default when it is not
///   optional. **Return** (``returnKeyPressed()``): commit the text and end editing.
/// - **Model changes** reach the field only when it is not being edited and its text would
///   differ, so the caret and an input method's composition are never disturbed. Changes
///   reported from other threads are applied on the main actor.
///
/// Whether the property is optional is known from its type: bind an optional property with
/// ``init(field:model:keyPath:format:)`` and a non-optional one with
/// ``init(field:model:keyPath:format:defaultValue:)``, which says what clearing it means.
///
/// ```swift
/// let binding = FieldBinding(field: quantityField, model: order, keyPath: \.quantity,
///                            format: IntegerFormat(range: 1...600), defaultValue: 1)
/// // In UITextFieldDelegate:
/// switch binding.replaceCharacters(in: range, with: string) {
/// case .accept: return true
/// case let .replaced(_, caret): moveCaret(to: caret); return false
/// case .refuse: return false
/// }
/// ```
///
/// Input methods: while the field has marked text, every change is accepted untouched;
/// call ``fieldTextDidChange()`` after each change the field applied, and the composed text
/// is validated when composition ends. Autofill that first replaces the text with a single
/// space is let through without touching the property, so the value it then sends (or the
/// one the field had) is not lost.
@MainActor
public final class FieldBinding<Model: ObservableModel, Format: FieldFormat> {
    /// The format that decides edits and reads values.
    public let format: Format

    /// The object that holds the bound property.
    public let model: Model

    /// The bound field; held weakly, as a view holds its delegate.
    public private(set) weak var field: (any BoundField)?

    /// Whether the field is being edited, and so in charge of its text.
    public private(set) var isEditing = false

    private let readValue: (Model) -> Format.Value?
    /// Writes a value, or resets the property (to `nil` or its default) for `nil`.
    private let writeValue: (Model, Format.Value?) -> Void
    /// What the property reads after a reset: `nil`, or the default of a non-optional one.
    private let emptyValue: Format.Value?

    /// The property's value when the binding last wrote or showed it. When the property
    /// reads otherwise, someone else changed it while the field was being edited.
    private var syncedValue: Format.Value?
    private var modelObservation: ObservationToken?

    /// The last text the binding accepted: what the field shows when no change is pending.
    private var acceptedText: String

    /// The text before an autofill's single-space preamble, while the real value is awaited.
    private var textBeforeAutofill: String?

    /// Binds a field to an optional property: an empty field means `nil`.
    ///
    /// The field shows the property's value at once.
    ///
    /// - Parameters:
    ///   - field: The field to bind; not retained.
    ///   - model: The object holding the property; retained.
    ///   - keyPath: The optional property.
    ///   - format: How the field's text is edited and read.
    public init(
        field: any BoundField,
        model: Model,
        keyPath: ReferenceWritableKeyPath<Model, Format.Value?>,
        format: Format
    ) {
        self.format = format
        self.model = model
        self.field = field
        readValue = { $0[keyPath: keyPath] }
        writeValue = { $0[keyPath: keyPath] = $1 }
        emptyValue = nil
        acceptedText = ""
        start(observing: keyPath)
    }

    /// Binds a field to a non-optional property: an empty field means `defaultValue`.
    ///
    /// The field shows the property's value at once.
    ///
    /// - Parameters:
    ///   - field: The field to bind; not retained.
    ///   - model: The object holding the property; retained.
    ///   - keyPath: The property.
    ///   - format: How the field's text is edited and read.
    ///   - defaultValue: What clearing the field, or committing it empty, sets the property to.
    public init(
        field: any BoundField,
        model: Model,
        keyPath: ReferenceWritableKeyPath<Model, Format.Value>,
        format: Format,
        defaultValue: Format.Value
    ) {
        self.format = format
        self.model = model
        self.field = field
        readValue = { $0[keyPath: keyPath] }
        writeValue = { $0[keyPath: keyPath] = $1 ?? defaultValue }
        emptyValue = defaultValue
        acceptedText = ""
        start(observing: keyPath)
    }

    /// The text the property's current value reads as.
    public var displayText: String {
        readValue(model).map(format.text(for:)) ?? ""
    }

    /// Hands the field to the person typing: from now on model changes do not reach it.
    ///
    /// Calling it while already editing does nothing. ``replaceCharacters(in:with:)`` begins
    /// editing by itself, for fields that have no separate focus event.
    public func beginEditing() {
        guard !isEditing else { return }
        isEditing = true
        acceptedText = field?.text ?? acceptedText
        textBeforeAutofill = nil
    }

    /// Decides a proposed edit and, when the resulting text stands for a value, updates the
    /// property.
    ///
    /// - Parameters:
    ///   - range: The replaced range of the field's text, in UTF-16 code units.
    ///   - replacement: The typed, pasted or autofilled text; empty for a deletion.
    /// - Returns: Whether the field should apply the edit, show another text, or refuse.
    public func replaceCharacters(in range: NSRange, with replacement: String) -> FieldEditDecision {
        beginEditing()
        guard let field else { return .refuse }
        // An input method is composing: its intermediate text is not the person's input yet.
        if field.hasMarkedText { return .accept }
        let current = field.text
        if textBeforeAutofill != nil {
            return completeAutofill(with: replacement)
        }
        guard let result = format.applying(replacement, in: range, to: current) else {
            return isAutofillPreamble(replacement, range: range, in: current) ? beginAutofill() : .refuse
        }
        return accept(result, for: TextEdit(range: range, replacement: replacement), on: current)
    }

    /// Takes in a change the field made on its own: an input method committing composed
    /// text, dictation, autocorrection.
    ///
    /// Call it after every change of the field's text (UIKit's `.editingChanged`). Changes
    /// already decided by ``replaceCharacters(in:with:)`` are recognised and cost nothing.
    /// Others are validated like the edit they amount to: refused ones are undone, filtered
    /// ones rewritten, and the property updated. While marked text exists, nothing happens.
    public func fieldTextDidChange() {
        guard let field, !field.hasMarkedText else { return }
        let current = field.text
        guard !current.isIdentical(to: acceptedText) else { return }
        beginEditing()
        textBeforeAutofill = nil
        let edit = TextEdit(from: acceptedText, to: current)
        if let result = format.applying(edit.replacement, in: edit.range, to: acceptedText) {
            write(result, to: field)
            acceptedText = result
            updateModel(from: result)
        } else {
            write(acceptedText, to: field)
        }
    }

    /// Gives the field back to the model: it shows the property's value again, normalised
    /// ("007" shows as "7").
    ///
    /// Keystrokes have already updated the property. A text left partial commits what comes
    /// before its trailing separator or sign ("1." commits 1, "-" commits nothing), unless the
    /// property was changed elsewhere while the field was being edited: that change wins.
    public func endEditing() {
        if isEditing {
            fieldTextDidChange()
            if Self.isSame(readValue(model), syncedValue) {
                commit(acceptedText)
            }
            isEditing = false
            textBeforeAutofill = nil
        }
        showModelValue()
    }

    /// Resets the property, to `nil` or to its default, and empties the field while it is
    /// being edited (or shows the default when it is not).
    public func clear() {
        setModel(nil)
        textBeforeAutofill = nil
        if isEditing, let field {
            write("", to: field)
            acceptedText = ""
        } else {
            showModelValue()
        }
    }

    /// Commits the field's text and ends editing, as the Return key does.
    ///
    /// Unlike ``endEditing()``, the text wins over a change made elsewhere meanwhile: the
    /// person confirmed what the field shows. A text without a value (out of range) still
    /// commits nothing.
    public func returnKeyPressed() {
        if isEditing {
            fieldTextDidChange()
            commit(acceptedText)
        }
        endEditing()
    }

    // MARK: - Edits

    private func accept(_ result: String, for edit: TextEdit, on current: String) -> FieldEditDecision {
        let decision: FieldEditDecision
        if let plain = try? edit.apply(to: current), plain.isIdentical(to: result) {
            decision = .accept
        } else if let field {
            write(result, to: field)
            decision = .replaced(text: result, caretLocation: caret(in: result, keeping: edit, of: current))
        } else {
            return .refuse
        }
        if !result.isIdentical(to: acceptedText) {
            acceptedText = result
            updateModel(from: result)
        }
        return decision
    }

    /// The caret after a rewritten edit: before the text that followed the edit, which a
    /// format keeps as it was.
    private func caret(in result: String, keeping edit: TextEdit, of current: String) -> Int {
        let following = current.utf16Length - edit.range.location - edit.range.length
        let resultLength = result.utf16Length
        let caret = max(resultLength - following, 0)
        return (try? result.characterBoundary(atOrAfter: caret)) ?? resultLength
    }

    // MARK: - Autofill

    /// Whether a refused edit is autofill's first call: one space over the whole text.
    private func isAutofillPreamble(_ replacement: String, range: NSRange, in text: String) -> Bool {
        replacement == " " && range.location == 0 && range.length == text.utf16Length
    }

    private func beginAutofill() -> FieldEditDecision {
        textBeforeAutofill = acceptedText
        acceptedText = " "
        return .accept
    }

    /// Decides the edit after an autofill preamble as an edit of an empty field, so that the
    /// placeholder space neither blocks nor joins the value. When the value is refused, the
    /// text from before the autofill comes back.
    private func completeAutofill(with replacement: String) -> FieldEditDecision {
        let previous = textBeforeAutofill ?? ""
        textBeforeAutofill = nil
        let result = format.applying(replacement, in: NSRange(location: 0, length: 0), to: "") ?? previous
        guard let field else { return .refuse }
        write(result, to: field)
        acceptedText = result
        updateModel(from: result)
        return .replaced(text: result, caretLocation: result.utf16Length)
    }

    // MARK: - Model

    private func updateModel(from text: String) {
        if text.isEmpty {
            setModel(nil)
        } else if let value = format.value(from: text) {
            setModel(value)
        }
    }

    private func commit(_ text: String) {
        if text.isEmpty {
            setModel(nil)
        } else if let value = format.value(from: text) {
            setModel(value)
        } else if let last = text.last, last.isPunctuation || last.isSymbol,
                  let value = format.value(from: String(text.dropLast())) {
            // A trailing separator or sign ("1.", "1,", "-") is a step on the way, not a
            // different number: commit what comes before it. A text that is complete but
            // refused (out of range) commits nothing, and the field shows the property again.
            setModel(value)
        }
    }

    /// Writes the property, or resets it for `nil`, only when that changes it: a write
    /// reports a change to every other observer.
    private func setModel(_ value: Format.Value?) {
        let target = value ?? emptyValue
        syncedValue = target
        guard !Self.isSame(readValue(model), target) else { return }
        writeValue(model, value)
    }

    /// Whether two values are the same, comparing text values by their code units: the
    /// property should hold exactly what the field shows, and `==` on a long text costs a
    /// normalising pass per keystroke.
    private static func isSame(_ first: Format.Value?, _ second: Format.Value?) -> Bool {
        if let first = first as? String, let second = second as? String {
            return first.isIdentical(to: second)
        }
        return first == second
    }

    private func start(observing keyPath: AnyKeyPath) {
        showModelValue()
        modelObservation = model.observeChanges(of: keyPath) { [weak self] in
            MainActorHop.run { self?.modelDidChange() }
        }
    }

    private func modelDidChange() {
        guard !isEditing else { return }
        showModelValue()
    }

    private func showModelValue() {
        syncedValue = readValue(model)
        let text = displayText
        acceptedText = text
        if let field { write(text, to: field) }
    }

    /// Sets the field's text only when it differs: rewriting resets the caret and breaks an
    /// input method's composition.
    private func write(_ text: String, to field: any BoundField) {
        if !field.text.isIdentical(to: text) { field.text = text }
    }
}
