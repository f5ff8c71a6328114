import Foundation
import TerminalText

/// The form that names the script and sets its match patterns and run-at time.
///
/// Tab and the arrows move between fields, Left and Right (or Space) change the run-at
/// choice, Enter saves, Esc cancels. Each text field validates per keystroke through the
/// host's validators and shows the reason its value is not acceptable.
struct ScriptForm: Sendable {
    enum Field: Int, CaseIterable, Sendable {
        case name
        case patterns
        case runAt
    }

    enum Action: Hashable, Sendable {
        case none
        case cancel
        /// The form is valid: save with these values.
        case submit(name: String, matchPatterns: [String], runAt: String)
    }

    var name: FormTextField
    var patterns: FormTextField
    let runAtChoices: [String]
    private(set) var runAtIndex: Int
    private(set) var focus: Field = .name
    /// Set while the host saves; keys are ignored meanwhile.
    var isSaving = false
    /// The host's reason the last save failed.
    var saveError: String?

    init(settings: ScriptFormSettings, current: NamedScript?) {
        name = FormTextField(label: "Name", text: current?.name ?? "", validator: settings.name)
        let patternList = current?.matchPatterns ?? settings.defaultMatchPatterns
        patterns = FormTextField(label: "Matches", text: patternList.joined(separator: " "), validator: settings.matchPatterns)
        runAtChoices = settings.runAtChoices
        let wanted = current?.runAt ?? settings.defaultRunAt
        runAtIndex = wanted.flatMap { settings.runAtChoices.firstIndex(of: $0) } ?? 0
    }

    var runAt: String { runAtChoices[runAtIndex] }

    mutating func handle(_ event: KeyEvent) -> Action {
        guard !isSaving else { return .none }
        switch (event.key, event.modifiers) {
        case (.escape, _):
            return .cancel
        case (.enter, _):
            return submit()
        case (.tab, _), (.down, _):
            focus = Field(rawValue: (focus.rawValue + 1) % Field.allCases.count) ?? .name
        case (.backTab, _), (.up, _):
            focus = Field(rawValue: (focus.rawValue + Field.allCases.count - 1) % Field.allCases.count) ?? .name
        default:
            switch focus {
            case .name: _ = name.handle(event)
            case .patterns: _ = patterns.handle(event)
            case .runAt: handleRunAt(event)
            }
        }
        saveError = nil
        return .none
    }

    mutating func paste(_ text: String) {
        guard !isSaving else { return }
        switch focus {
        case .name: name.paste(text)
        case .patterns: patterns.paste(text)
        case .runAt: break
        }
    }

    private mutating func handleRunAt(_ event: KeyEvent) {
        switch event.key {
        case .left:
            runAtIndex = (runAtIndex + runAtChoices.count - 1) % runAtChoices.count
        case .right, .character(" "):
            runAtIndex = (runAtIndex + 1) % runAtChoices.count
        default:
            break
        }
    }

    private mutating func submit() -> Action {
        name.markEdited()
        patterns.markEdited()
        if name.problem != nil {
            focus = .name
            return .none
        }
        if patterns.problem != nil {
            focus = .patterns
            return .none
        }
        return .submit(name: name.text.trimmingCharacters(in: .whitespaces),
                       matchPatterns: FieldValidator.splitPatterns(patterns.text), runAt: runAt)
    }

    /// The rows the form needs.
    static let height = 9

    func draw(into grid: inout CellGrid, frame: CellRect) -> CursorPlacement? {
        guard frame.height >= 5, frame.width >= 20 else { return nil }
        Box.draw(into: &grid, frame: frame, title: "Save script as")
        let inner = frame.insetBy(1)
        let x = inner.x + 1
        let width = inner.width - 2
        let labelWidth = 10
        var y = inner.y
        var cursor: CursorPlacement?
        let problemStyle = CellStyle(foreground: .red)

        for (field, textField) in [(Field.name, name), (Field.patterns, patterns)] {
            guard y < inner.maxY else { break }
            let placement = textField.draw(into: &grid, x: x, y: y, width: width, labelWidth: labelWidth, focused: focus == field)
            if focus == field { cursor = placement }
            y += 1
            if y < inner.maxY, textField.isEdited, let problem = textField.problem {
                grid.write(TerminalSafeText.escaped(problem), x: x + labelWidth, y: y, style: problemStyle, clip: inner.maxX)
            }
            y += 1
        }
        if y < inner.maxY {
            let focused = focus == .runAt
            grid.write("Run at", x: x, y: y, style: focused ? CellStyle(attributes: .bold) : .plain, clip: x + labelWidth)
            let choice = "‹ " + TerminalSafeText.escaped(runAt) + " ›"
            grid.write(choice, x: x + labelWidth, y: y, style: focused ? CellStyle(attributes: .reverse) : .plain, clip: inner.maxX)
            if focused { cursor = nil }
            y += 2
        }
        if y < inner.maxY {
            if isSaving {
                grid.write("Saving…", x: x, y: y, style: CellStyle(attributes: .dim), clip: inner.maxX)
            } else if let saveError {
                grid.write(TerminalSafeText.escaped(saveError), x: x, y: y, style: problemStyle, clip: inner.maxX)
            } else {
                grid.write("Patterns are separated by spaces.", x: x, y: y, style: CellStyle(attributes: .dim), clip: inner.maxX)
            }
        }
        return cursor
    }
}
