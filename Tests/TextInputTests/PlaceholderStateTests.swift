import Testing
import TextInput

struct PlaceholderStateTests {
    /// One thing that happens to a text view.
    enum Event: Sendable, CustomStringConvertible {
        case typed(String)
        case setInCode(String)
        case compositionBegan
        case compositionEnded

        var description: String {
            switch self {
            case let .typed(text): "typed \"\(text)\""
            case let .setInCode(text): "set \"\(text)\""
            case .compositionBegan: "composing"
            case .compositionEnded: "composed"
            }
        }
    }

    struct Scenario: Sendable, CustomTestStringConvertible {
        let name: String
        let initialText: String
        /// Each event with whether the placeholder shows afterwards.
        let steps: [(Event, Bool)]
        var testDescription: String { name }
    }

    static let scenarios: [Scenario] = [
        Scenario(name: "typing and deleting", initialText: "", steps: [
            (.typed("a"), false), (.typed(""), true),
        ]),
        Scenario(name: "text set in code", initialText: "", steps: [
            (.setInCode("Hello"), false), (.setInCode(""), true), (.setInCode("👨‍👩‍👧‍👦"), false),
        ]),
        Scenario(name: "starts with text", initialText: "draft", steps: [
            (.setInCode(""), true),
        ]),
        Scenario(name: "composition of the first character", initialText: "", steps: [
            (.compositionBegan, false), (.typed("k"), false), (.typed("か"), false),
            (.typed(""), false), (.compositionEnded, true),
        ]),
        Scenario(name: "composition committed", initialText: "", steps: [
            (.compositionBegan, false), (.typed("にほん"), false), (.typed("日本"), false), (.compositionEnded, false),
        ]),
        Scenario(name: "composition after text", initialText: "a", steps: [
            (.compositionBegan, false), (.setInCode(""), false), (.compositionEnded, true),
        ]),
        Scenario(name: "a space is text", initialText: "", steps: [
            (.typed(" "), false),
        ]),
    ]

    @Test(arguments: scenarios)
    func visibility(_ scenario: Scenario) {
        var state = PlaceholderState(text: scenario.initialText)
        #expect(state.isVisible == scenario.initialText.isEmpty)
        for (event, expected) in scenario.steps {
            let wasVisible = state.isVisible
            let changed: Bool
            switch event {
            case let .typed(text), let .setInCode(text):
                changed = state.textDidChange(to: text)
            case .compositionBegan:
                changed = state.compositionDidChange(isComposing: true)
            case .compositionEnded:
                changed = state.compositionDidChange(isComposing: false)
            }
            #expect(state.isVisible == expected, "after \(event)")
            #expect(changed == (wasVisible != expected), "change reported after \(event)")
        }
    }

    @Test(arguments: [("", false, true), ("", true, false), ("a", false, false), ("a", true, false)])
    func updateTakesTextAndComposition(_ text: String, _ isComposing: Bool, _ expected: Bool) {
        var state = PlaceholderState(text: "something")
        state.update(text: text, isComposing: isComposing)
        #expect(state.isVisible == expected)
        #expect(state == PlaceholderState(text: text, isComposing: isComposing))
    }
}
