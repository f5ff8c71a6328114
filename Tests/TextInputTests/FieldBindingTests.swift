import Foundation
import Testing
import TextInput

@MainActor
struct FieldBindingTests {
    let model = OrderModel()
    let field = FieldDouble()

    func quantityBinding(range: ClosedRange<Int>? = nil) -> FieldBinding<OrderModel, IntegerFormat> {
        FieldBinding(field: field, model: model, keyPath: \.quantity, format: IntegerFormat(range: range), defaultValue: 0)
    }

    func limitBinding() -> FieldBinding<OrderModel, IntegerFormat> {
        FieldBinding(field: field, model: model, keyPath: \.limit, format: IntegerFormat())
    }

    func discountBinding() -> FieldBinding<OrderModel, DecimalFormat> {
        FieldBinding(
            field: field, model: model, keyPath: \.discount,
            format: DecimalFormat(locale: Locale(identifier: "de_DE"), maximumFractionDigits: 2)
        )
    }

    // MARK: Showing the model

    @Test
    func fieldShowsTheValueWhenBound() {
        model.quantity = 12
        model.discount = Decimal(string: "2.5")
        let quantity = quantityBinding()
        #expect(field.text == "12")
        let otherField = FieldDouble()
        let discount = FieldBinding(
            field: otherField, model: model, keyPath: \.discount,
            format: DecimalFormat(locale: Locale(identifier: "de_DE"))
        )
        #expect(otherField.text == "2,5")
        #expect(!quantity.isEditing && !discount.isEditing)
    }

    @Test
    func optionalNilShowsAnEmptyField() {
        _ = limitBinding()
        #expect(field.text == "")
    }

    @Test
    func modelChangesReachAFieldThatIsNotBeingEdited() {
        let binding = quantityBinding()
        model.quantity = 7
        #expect(field.text == "7")
        #expect(binding.displayText == "7")
    }

    @Test
    func unchangedTextIsNotRewritten() {
        _ = quantityBinding()
        model.quantity = 7
        let writes = field.writes
        model.quantity = 7
        model.note = "unrelated"
        #expect(field.writes == writes)
    }

    // MARK: Editing

    @Test
    func eachAcceptedKeystrokeUpdatesTheModel() throws {
        let binding = quantityBinding()
        binding.beginEditing()
        try field.replaceAll(with: "4", in: binding)
        #expect(model.quantity == 4)
        try field.type("2", into: binding)
        #expect(field.text == "42")
        #expect(model.quantity == 42)
        try field.backspace(in: binding)
        #expect(model.quantity == 4)
    }

    @Test(arguments: [true, false])
    func modelChangeWhileEditingWaitsUntilEditingEnds(optional: Bool) throws {
        let binding = optional ? limitBinding() : quantityBinding()
        binding.beginEditing()
        try field.replaceAll(with: "5", in: binding)
        if optional { model.limit = 99 } else { model.quantity = 99 }
        #expect(field.text == "5", "the person typing is in charge")
        binding.endEditing()
        #expect(field.text == "99", "the model is shown again once editing ends")
    }

    @Test
    func partialTextLeavesTheModelAlone() throws {
        let binding = discountBinding()
        binding.beginEditing()
        try field.type("-", into: binding)
        #expect(model.discount == nil)
        try field.type("0", into: binding)
        #expect(model.discount == 0)
        try field.type(",", into: binding)
        #expect(model.discount == 0)
        try field.type("5", into: binding)
        #expect(model.discount == Decimal(string: "-0.5"))
        #expect(field.text == "-0,5")
    }

    @Test
    func refusedKeystrokeChangesNothing() throws {
        model.quantity = 12
        let binding = quantityBinding()
        binding.beginEditing()
        field.caret = 2
        let writes = model.writes
        #expect(try field.type("x", into: binding) == .refuse)
        #expect(field.text == "12")
        #expect(model.quantity == 12)
        #expect(model.writes == writes)
    }

    @Test
    func pasteIsFilteredAndTheCaretFollowsIt() throws {
        model.quantity = 56
        let binding = quantityBinding()
        binding.beginEditing()
        field.caret = 1
        let decision = try field.type("1,234", into: binding)
        #expect(decision == .replaced(text: "512346", caretLocation: 5))
        #expect(model.quantity == 512_346)
    }

    @Test
    func loneZeroGivesWayToTypedDigits() throws {
        model.quantity = 0
        let binding = quantityBinding()
        binding.beginEditing()
        field.caret = 1
        #expect(try field.type("7", into: binding) == .replaced(text: "7", caretLocation: 1))
        #expect(model.quantity == 7)
    }

    @Test
    func emptyingTheFieldResetsTheProperty() throws {
        model.limit = 5
        let optional = limitBinding()
        optional.beginEditing()
        try field.replaceAll(with: "", in: optional)
        #expect(model.limit == nil)

        let otherField = FieldDouble()
        model.quantity = 5
        let nonOptional = FieldBinding(field: otherField, model: model, keyPath: \.quantity, format: IntegerFormat(), defaultValue: 1)
        nonOptional.beginEditing()
        try otherField.replaceAll(with: "", in: nonOptional)
        #expect(model.quantity == 1)
        #expect(otherField.text == "")
        nonOptional.endEditing()
        #expect(otherField.text == "1")
    }

    // MARK: Ending, clearing, returning

    @Test(arguments: [("007", 7, "7"), ("-0", 0, "0"), ("42", 42, "42")])
    func endEditingNormalisesTheText(_ typed: String, _ value: Int, _ shown: String) throws {
        let binding = quantityBinding()
        binding.beginEditing()
        try field.replaceAll(with: typed, in: binding)
        binding.endEditing()
        #expect(model.quantity == value)
        #expect(field.text == shown)
        #expect(!binding.isEditing)
    }

    @Test
    func trailingSeparatorCommitsTheNumberBeforeIt() throws {
        model.discount = Decimal(string: "1.5")
        let binding = discountBinding()
        #expect(field.text == "1,5")
        binding.beginEditing()
        field.caret = 3
        try field.backspace(in: binding)
        #expect(field.text == "1,")
        #expect(model.discount == Decimal(string: "1.5"), "\"1,\" is partial while typing")
        binding.endEditing()
        #expect(model.discount == 1)
        #expect(field.text == "1")
    }

    @Test
    func changeMadeElsewhereWinsOverAPartialText() throws {
        model.discount = Decimal(string: "1.5")
        let binding = discountBinding()
        binding.beginEditing()
        field.caret = 3
        try field.backspace(in: binding)
        model.discount = 7
        binding.endEditing()
        #expect(model.discount == 7)
        #expect(field.text == "7")
    }

    @Test
    func returnCommitsOverAChangeMadeElsewhere() throws {
        let binding = limitBinding()
        binding.beginEditing()
        try field.replaceAll(with: "12", in: binding)
        model.limit = 99
        binding.returnKeyPressed()
        #expect(model.limit == 12)
        #expect(field.text == "12")
    }

    @Test
    func releasedFieldRefusesEdits() throws {
        var transient: FieldDouble? = FieldDouble()
        let binding = try FieldBinding(field: #require(transient), model: model, keyPath: \.limit, format: IntegerFormat())
        transient = nil
        #expect(binding.field == nil)
        #expect(binding.replaceCharacters(in: NSRange(location: 0, length: 0), with: "1") == .refuse)
        model.limit = 3
        #expect(binding.displayText == "3")
    }

    @Test
    func loneMinusCommitsNothing() throws {
        model.limit = 8
        let binding = limitBinding()
        binding.beginEditing()
        try field.replaceAll(with: "-", in: binding)
        binding.endEditing()
        #expect(model.limit == 8)
        #expect(field.text == "8")
    }

    @Test
    func outOfRangeTextIsNotCommitted() throws {
        model.quantity = 300
        let binding = quantityBinding(range: 100...600)
        binding.beginEditing()
        try field.replaceAll(with: "5", in: binding)
        #expect(field.text == "5", "5 can still become 500")
        #expect(model.quantity == 300)
        binding.endEditing()
        #expect(model.quantity == 300)
        #expect(field.text == "300")
    }

    @Test
    func clearResetsOptionalToNil() throws {
        model.limit = 9
        let binding = limitBinding()
        binding.beginEditing()
        binding.clear()
        #expect(model.limit == nil)
        #expect(field.text == "")
    }

    @Test
    func clearResetsNonOptionalToItsDefault() throws {
        model.quantity = 9
        let binding = quantityBinding()
        binding.beginEditing()
        binding.clear()
        #expect(model.quantity == 0)
        #expect(field.text == "", "the field stays empty while it is being edited")
        binding.endEditing()
        #expect(field.text == "0")
    }

    @Test
    func clearWhenNotEditingShowsTheDefault() {
        model.quantity = 9
        let binding = quantityBinding()
        binding.clear()
        #expect(model.quantity == 0)
        #expect(field.text == "0")
    }

    @Test
    func returnCommitsAndEndsEditing() throws {
        let binding = discountBinding()
        binding.beginEditing()
        try field.type("3", into: binding)
        try field.type(".", into: binding)
        binding.returnKeyPressed()
        #expect(model.discount == 3)
        #expect(field.text == "3")
        #expect(!binding.isEditing)
        model.discount = 4
        #expect(field.text == "4")
    }

    // MARK: Input methods and autofill

    @Test
    func markedTextIsNeverVetoedAndIsValidatedWhenCompositionEnds() throws {
        let binding = quantityBinding()
        binding.beginEditing()
        try field.replaceAll(with: "1", in: binding)
        field.hasMarkedText = true
        // A Japanese input method composes in place: letters first, then the conversion.
        #expect(try field.type("ｎ", into: binding) == .accept)
        #expect(try field.propose("２", in: NSRange(location: 1, length: 1), to: binding) == .accept)
        #expect(field.text == "1２")
        #expect(model.quantity == 1, "nothing is committed while composing")
        field.hasMarkedText = false
        binding.fieldTextDidChange()
        #expect(field.text == "12")
        #expect(model.quantity == 12)
    }

    @Test
    func composedTextThatCannotBelongIsUndone() throws {
        let binding = quantityBinding()
        binding.beginEditing()
        try field.replaceAll(with: "1", in: binding)
        field.hasMarkedText = true
        try field.type("か", into: binding)
        try field.propose("かな", in: NSRange(location: 1, length: 1), to: binding)
        field.hasMarkedText = false
        binding.fieldTextDidChange()
        #expect(field.text == "1")
        #expect(model.quantity == 1)
    }

    @Test
    func autofillSpacePreambleKeepsTheValue() throws {
        model.quantity = 42
        let binding = quantityBinding()
        binding.beginEditing()
        #expect(try field.replaceAll(with: " ", in: binding) == .accept)
        #expect(model.quantity == 42)
        #expect(try field.propose("123456", in: NSRange(location: 0, length: 1), to: binding) == .replaced(text: "123456", caretLocation: 6))
        #expect(model.quantity == 123_456)
    }

    @Test
    func autofillPreambleWithoutAValueRestoresTheOldOne() throws {
        model.quantity = 42
        let binding = quantityBinding()
        binding.beginEditing()
        try field.replaceAll(with: " ", in: binding)
        binding.endEditing()
        #expect(model.quantity == 42)
        #expect(field.text == "42")
    }

    @Test
    func autofillValueThatCannotBelongRestoresTheOldText() throws {
        model.quantity = 42
        let binding = quantityBinding()
        binding.beginEditing()
        try field.replaceAll(with: " ", in: binding)
        #expect(try field.propose("Jane", in: NSRange(location: 0, length: 1), to: binding) == .replaced(text: "42", caretLocation: 2))
        #expect(model.quantity == 42)
    }

    @Test
    func autofillIntoALengthLimitedTextField() throws {
        let binding = FieldBinding(field: field, model: model, keyPath: \.note, format: TextFormat(maxLength: 6))
        binding.beginEditing()
        try field.replaceAll(with: " ", in: binding)
        #expect(model.note == " ", "a space is text in a text field")
        try field.propose("123456", in: NSRange(location: 0, length: 1), to: binding)
        #expect(field.text == "123456")
        #expect(model.note == "123456")
    }

    @Test
    func autofillEmptyPreambleThenValue() throws {
        model.limit = 42
        let binding = limitBinding()
        binding.beginEditing()
        try field.replaceAll(with: "", in: binding)
        try field.propose("77", in: NSRange(location: 0, length: 0), to: binding)
        #expect(model.limit == 77)
        binding.endEditing()
        #expect(field.text == "77")
    }

    // MARK: Threads, lifetimes, other models

    @Test
    func changesFromAnotherThreadReachTheFieldOnTheMainActor() async {
        let binding = quantityBinding()
        let model = model
        await Task.detached { model.quantity = 314 }.value
        #expect(await eventually { self.field.text == "314" })
        #expect(field.writesOffMain == 0)
        #expect(!binding.isEditing)
    }

    @Test
    func twoFieldsOnOnePropertyFollowEachOther() throws {
        let binding = quantityBinding()
        let mirror = FieldDouble()
        let mirrorBinding = FieldBinding(field: mirror, model: model, keyPath: \.quantity, format: IntegerFormat(), defaultValue: 0)
        binding.beginEditing()
        try field.replaceAll(with: "8", in: binding)
        try field.type("1", into: binding)
        #expect(mirror.text == "81")
        #expect(!mirrorBinding.isEditing)
    }

    @Test
    func releasedBindingStopsObserving() {
        weak var released: FieldBinding<OrderModel, IntegerFormat>?
        do {
            let binding = quantityBinding()
            released = binding
        }
        #expect(released == nil, "the model does not keep the binding alive")
        model.quantity = 5
        #expect(field.text == "1")
    }

    @Test
    func textPropertyWithACustomDefault() throws {
        final class Account: ObservableModel {
            let changes = ChangeNotifier()
            var handle = "guest" { didSet { changes.notifyChange() } }
            func observeChanges(of keyPath: AnyKeyPath, _ handler: @escaping @Sendable () -> Void) -> ObservationToken {
                changes.observe(handler)
            }
        }
        let account = Account()
        let binding = FieldBinding(field: field, model: account, keyPath: \.handle, format: TextFormat(maxLength: 10), defaultValue: "guest")
        #expect(field.text == "guest")
        binding.beginEditing()
        try field.replaceAll(with: "👩‍💻 ana", in: binding)
        #expect(account.handle == "👩‍💻 ana")
        binding.clear()
        #expect(account.handle == "guest")
    }

    @Test
    func observationFrameworkModel() async throws {
        let profile = ProfileModel()
        let binding = FieldBinding(field: field, model: profile, keyPath: \.age, format: IntegerFormat(range: 0...150))
        #expect(field.text == "")
        profile.age = 30
        #expect(await eventually { self.field.text == "30" })

        binding.beginEditing()
        try field.replaceAll(with: "4", in: binding)
        #expect(profile.age == 4)
        profile.age = 77
        // Give the change every chance to arrive: it must still not reach the field.
        try await Task.sleep(for: .milliseconds(20))
        #expect(field.text == "4")
        binding.endEditing()
        #expect(field.text == "77")

        profile.age = 31
        #expect(await eventually { self.field.text == "31" }, "tracking continues after each change")
        profile.name = "unrelated"
        profile.age = nil
        #expect(await eventually { self.field.text == "" })
    }
}
