import Foundation
import Observation
import Testing
import TextInput

/// The fields of a script's name and match patterns, bound to a model as the iOS app's script
/// screens bind them (the terminal editor's form uses the same formats).
@MainActor
struct ScriptFieldFormatTests {
    @Observable
    final class Details: ObservableModel {
        var name: String?
        var patterns: [String]?
    }

    /// A stand-in for MatchPattern's check (UserScripts' tests check the real one): a pattern
    /// starts with a scheme, and `ftp` is not one.
    static let patterns = PatternListFormat(
        canBecomeValid: { partial in ["https://", "http://", "*://"].contains { $0.hasPrefix(partial) || partial.hasPrefix($0) } },
        problem: { $0.contains("://") && $0.count > 8 ? nil : "it has no host" })

    @Test func aPatternFieldRefusesKeystrokesThatNoTypingCouldMakeValid() throws {
        let model = Details()
        let field = FieldDouble()
        let binding = FieldBinding(field: field, model: model, keyPath: \.patterns, format: Self.patterns)
        binding.beginEditing()
        try field.type("h", into: binding)
        #expect(try field.type("x", into: binding) == .refuse, "no scheme starts with hx")
        try field.type("ttps://", into: binding)
        #expect(model.patterns == nil, "an incomplete pattern is no value yet")
        #expect(Self.patterns.problem(with: field.text) == "https://: it has no host")
        try field.type("example.com/*", into: binding)
        #expect(model.patterns == ["https://example.com/*"])
        try field.type(" f", into: binding)
        #expect(field.text == "https://example.com/*", "a second pattern starting with f is refused")
        try field.type(", *://a.example/*", into: binding)
        #expect(model.patterns == ["https://example.com/*", "*://a.example/*"])
        #expect(try field.type("\u{1B}", into: binding) == .refuse, "control characters are refused")
    }

    @Test func aPastedListBecomesOneLineAndAPatternHeldBeforeStaysEditable() {
        let text = Self.patterns.applying("https://a.example/*\nhttp://b.example/*", in: NSRange(location: 0, length: 0), to: "")
        #expect(text == "https://a.example/* http://b.example/*")
        // A default the field starts with may be invalid: editing elsewhere is not blocked by it.
        let edited = Self.patterns.applying(" *://c.example/*", in: NSRange(location: 5, length: 0), to: "bogus")
        #expect(edited == "bogus *://c.example/*")
        #expect(Self.patterns.problem(with: "bogus *://c.example/*") == "bogus: it has no host")
        #expect(Self.patterns.problem(with: "") != nil)
        #expect(PatternListFormat(allowingNone: true, canBecomeValid: { _ in true }, problem: { _ in nil }).value(from: " ") == [])
    }

    @Test func aNameMustHoldMoreThanSpaces() throws {
        let format = NameFormat(missing: "Give the script a name.", maxLength: 5)
        let model = Details()
        let field = FieldDouble()
        let binding = FieldBinding(field: field, model: model, keyPath: \.name, format: format)
        binding.beginEditing()
        try field.type("  ", into: binding)
        #expect(format.problem(with: field.text) == "Give the script a name.")
        #expect(model.name == nil)
        try field.type("Prices", into: binding)
        #expect(field.text == "  Pri", "the paste is cut at the limit")
        #expect(model.name == "Pri")
        #expect(format.problem(with: field.text) == nil)
    }
}
