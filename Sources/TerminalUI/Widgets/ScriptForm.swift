import Foundation
import SystemSupport
import TextInput

/// The form that saves the script as a new one: its name, the pages it runs on (match patterns
/// and excludes) and when it runs, or "on demand" (no patterns, no run-at: it runs only when
/// asked).
///
/// Tab and the arrows move between fields, Left and Right (or Space) change the run-at
/// choice, Enter saves, Esc cancels. Each text field validates per keystroke through the
/// host's validators; every problem is shown whole, wrapped under its field, and the dialog
/// grows to hold them.
struct ScriptForm: Sendable {
    enum Field: Int, CaseIterable, Sendable {
        case name
        case patterns
        case excludes
        case runAt
    }

    enum Action: Hashable, Sendable {
        case none
        case cancel
        /// The form is valid: save a script with these values (the caller adds the code).
        case submit(NamedScript)
    }

    var name: FormTextField
    var patterns: FormTextField
    var excludes: FormTextField
    /// The run-at values and, last, ``ScriptFormSettings/onDemandChoice``.
    let runAtChoices: [String]
    private(set) var runAtIndex: Int
    private(set) var focus: Field = .name
    /// Set while the host saves; keys are ignored meanwhile.
    var isSaving = false
    /// The host's reason the last save failed.
    var saveError: String?

    static let labelWidth = 10

    /// A form starting with `name`, and with where and when `current` runs (or the settings'
    /// defaults).
    init(settings: ScriptFormSettings, name: String, current: NamedScript?) {
        self.name = FormTextField(label: "Name", text: name, format: settings.name)
        let patternList = current?.matchPatterns ?? settings.defaultMatchPatterns
        patterns = FormTextField(label: "Matches", text: patternList.joined(separator: " "), format: settings.matchPatterns)
        excludes = FormTextField(label: "Excludes", text: (current?.excludePatterns ?? []).joined(separator: " "),
                                 format: settings.excludePatterns)
        runAtChoices = settings.runAtChoices + [ScriptFormSettings.onDemandChoice]
        if let current {
            if let runAt = current.runAt {
                runAtIndex = settings.runAtChoices.firstIndex(of: runAt) ?? 0
            } else {
                runAtIndex = current.matchPatterns.isEmpty ? runAtChoices.count - 1 : 0
            }
        } else {
            runAtIndex = settings.defaultRunAt.flatMap { settings.runAtChoices.firstIndex(of: $0) } ?? 0
        }
    }

    var runAt: String { runAtChoices[runAtIndex] }
    /// Whether "on demand" is chosen: the pattern fields are not used then.
    var isOnDemand: Bool { runAtIndex == runAtChoices.count - 1 }

    mutating func handle(_ event: KeyEvent) -> Action {
        guard !isSaving else { return .none }
        switch (event.key, event.modifiers) {
        case (.escape, _):
            return .cancel
        case (.enter, _):
            return submit()
        case (.tab, _), (.down, _):
            moveFocus(by: 1)
        case (.backTab, _), (.up, _):
            moveFocus(by: -1)
        default:
            switch focus {
            case .name: _ = name.handle(event)
            case .patterns: _ = patterns.handle(event)
            case .excludes: _ = excludes.handle(event)
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
        case .excludes: excludes.paste(text)
        case .runAt: break
        }
    }

    /// The next field that takes input; the pattern fields are skipped while "on demand" is chosen.
    private mutating func moveFocus(by step: Int) {
        let count = Field.allCases.count
        var next = focus
        repeat {
            next = Field(rawValue: (next.rawValue + step + count) % count) ?? .name
        } while isOnDemand && (next == .patterns || next == .excludes)
        focus = next
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
        // Every field in use shows its problem at once, not one field per Enter; the cursor
        // goes to the first.
        name.markEdited()
        var invalid = name.problem == nil ? [] : [Field.name]
        if !isOnDemand {
            patterns.markEdited()
            excludes.markEdited()
            if patterns.problem != nil { invalid.append(.patterns) }
            if excludes.problem != nil { invalid.append(.excludes) }
        }
        if let first = invalid.first {
            focus = first
            return .none
        }
        if isOnDemand {
            return .submit(NamedScript(name: name.text.trimmingCharacters(in: .whitespaces), code: "", matchPatterns: [], runAt: nil))
        }
        return .submit(NamedScript(name: name.text.trimmingCharacters(in: .whitespaces), code: "",
                                   matchPatterns: PatternListFormat.patterns(in: patterns.text),
                                   excludePatterns: PatternListFormat.patterns(in: excludes.text), runAt: runAt))
    }

    /// The problem lines under each field, wrapped at spaces to `width` columns.
    private func problemLines(of field: FormTextField, width: Int) -> [String] {
        guard field.isEdited, let problem = field.problem else { return [] }
        return problem.split(separator: "\n").flatMap { line in
            DisplayText.wordWrapped(TerminalSafeText.escaped(String(line)), toColumns: max(1, width))
        }
    }

    /// The footer: saving, the host's error, or a hint; wrapped at spaces to `width`.
    private func footerLines(width: Int) -> [String] {
        let text: String
        if isSaving {
            text = "Saving…"
        } else if let saveError {
            text = TerminalSafeText.escaped(saveError)
        } else if isOnDemand {
            text = "On demand: no patterns and no run-at; the script runs only when you ask (Ctrl-R, `pagescript run --script`)."
        } else {
            text = "Patterns are separated by spaces. ←→ change when it runs."
        }
        return DisplayText.wordWrapped(text, toColumns: max(1, width))
    }

    /// The rows the form needs inside a dialog `width` columns wide.
    func height(width: Int) -> Int {
        let inner = width - 4
        let problemWidth = inner - Self.labelWidth
        var rows = 2 + 4 + 1
        for field in [name, patterns, excludes] where !(isOnDemand && field.label != name.label) {
            rows += problemLines(of: field, width: problemWidth).count
        }
        rows += footerLines(width: inner).count
        return rows
    }

    func draw(into grid: inout CellGrid, frame: CellRect) -> CursorPlacement? {
        guard frame.height >= 5, frame.width >= 20 else { return nil }
        Box.draw(into: &grid, frame: frame, title: "Save as a new script")
        let inner = frame.insetBy(1)
        let x = inner.x + 1
        let width = inner.width - 2
        let labelWidth = Self.labelWidth
        var y = inner.y
        var cursor: CursorPlacement?
        let problemStyle = CellStyle(foreground: .red)
        let unused = CellStyle(attributes: .dim)

        for (field, textField) in [(Field.name, name), (.patterns, patterns), (.excludes, excludes)] {
            guard y < inner.maxY else { break }
            if isOnDemand, field != .name {
                grid.write(textField.label, x: x, y: y, style: unused, clip: x + labelWidth)
                grid.write("(not used: on demand)", x: x + labelWidth, y: y, style: unused, clip: inner.maxX)
                y += 1
                continue
            }
            let placement = textField.draw(into: &grid, x: x, y: y, width: width, labelWidth: labelWidth, focused: focus == field)
            if focus == field { cursor = placement }
            y += 1
            for line in problemLines(of: textField, width: width - labelWidth) {
                guard y < inner.maxY else { break }
                grid.write(line, x: x + labelWidth, y: y, style: problemStyle, clip: inner.maxX)
                y += 1
            }
        }
        if y < inner.maxY {
            let focused = focus == .runAt
            grid.write("Run at", x: x, y: y, style: focused ? CellStyle(attributes: .bold) : .plain, clip: x + labelWidth)
            let choice = "‹ " + TerminalSafeText.escaped(runAt) + " ›"
            grid.write(choice, x: x + labelWidth, y: y, style: focused ? CellStyle(attributes: .reverse) : .plain, clip: inner.maxX)
            if focused { cursor = nil }
            y += 2
        }
        let footerStyle = saveError != nil && !isSaving ? problemStyle : CellStyle(attributes: .dim)
        for line in footerLines(width: width) {
            guard y < inner.maxY else { break }
            grid.write(line, x: x, y: y, style: footerStyle, clip: inner.maxX)
            y += 1
        }
        return cursor
    }
}
