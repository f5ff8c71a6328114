import Foundation
import ScriptConsole
import Testing
import TextInput
@testable import TerminalUI

@Suite("Editor: running, saving, quitting")
struct EditorHostTests {
    @Test func controlRAsksTheHostToRunTheScript() {
        var state = EditorState.make("1 + 1")
        #expect(state.control("r") == [.runScript(id: 1, script: "1 + 1")])
        #expect(state.isRunning)
        _ = state.handle(.host(.runFinished(id: 1, ScriptRunResult(value: .number("2")), duration: .milliseconds(3))))
        #expect(!state.isRunning)
        #expect(state.isPanelOpen)
    }

    @Test func anAnswerToAnotherRunIsIgnored() {
        var state = EditorState.make("x")
        state.control("r")
        _ = state.handle(.host(.runFinished(id: 7, ScriptRunResult(value: .number("2")), duration: .zero)))
        #expect(state.isRunning)
        #expect(!state.isPanelOpen)
    }

    @Test func runResultOpensThePanelWithValueAndConsole() {
        var state = EditorState.make("x")
        state.run(answering: ScriptRunResult(value: .object([.init(key: "a", value: .number("1"))]), console: [
            ConsoleMessage(level: .log, message: "hello"),
            ConsoleMessage(level: .warn, message: "careful\nsecond line"),
        ]))
        let rows = state.screenRows()
        #expect(rows.contains { $0.contains("hello") })
        #expect(rows.contains { $0.contains("careful") })
        #expect(rows.contains { $0.contains("second line") })
        #expect(rows.contains { $0.contains("a: 1") || $0.contains("\"a\": 1") }, "\(rows)")
    }

    @Test func errorMovesTheCursorToItsLineAndColumn() throws {
        let script = (1...40).map { "let v\($0) = \($0);" }.joined(separator: "\n") + "\nconst 🎉x = boom();"
        var state = EditorState.make(script)
        // Column 13 counts UTF-16 units: "const " is 6, "🎉" 2, "x = " 4, so it is the "b",
        // the twelfth character.
        let exception = ScriptException(name: "ReferenceError", message: "boom is not defined", line: 41, column: 13)
        state.run(answering: ScriptRunResult(console: [], exception: exception))
        #expect(state.cursor == .at(40, 11))
        let layout = state.layout
        let panel = try #require(layout.panel)
        // The cursor is visible above the panel, which covers the editor's lower part.
        #expect(state.cursor.row >= state.viewport.top)
        #expect(state.cursor.row < state.viewport.top + layout.visibleTextRows)
        #expect(layout.editor.y + (state.cursor.row - state.viewport.top) < panel.y)
        let rows = state.screenRows()
        #expect(rows.contains { $0.contains("✖ ReferenceError: boom is not defined (line 41, column 13)") })
    }

    @Test func escClosesThePanel() {
        var state = EditorState.make("x")
        state.run(answering: ScriptRunResult(value: .number("1")))
        #expect(state.layout.panel != nil)
        state.press(.escape)
        #expect(!state.isPanelOpen)
        #expect(state.layout.visibleTextRows == 22)
    }

    @Test func pageTextInThePanelIsEscaped() {
        var state = EditorState.make("x")
        let hostile = ScriptRunResult(console: [ConsoleMessage(level: .log, message: "\u{1B}[2J\u{9B}31m\u{202E}txt")],
                                      exception: ScriptException(name: "E\u{7}", message: "m\u{1B}]0;pwned\u{7}"))
        state.run(answering: hostile)
        let rows = state.screenRows().joined(separator: "\n")
        #expect(rows.contains("\\e[2J\\u{9B}31m\\u{202E}txt"))
        #expect(rows.contains("E\\u{7}: m\\e]0;pwned\\u{7}"))
        #expect(!rows.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x9B || $0.value == 0x202E })
    }

    @Test func runFailureShowsInThePanel() {
        var state = EditorState.make("x")
        state.control("r")
        _ = state.handle(.host(.runFailed(id: 1, "The browser is gone.")))
        #expect(!state.isRunning)
        #expect(state.screenRows().contains { $0.contains("The browser is gone.") })
    }

    @Test func panelScrollsWithControlArrows() {
        var state = EditorState.make("x")
        state.run(answering: ScriptRunResult(console: (1...50).map { ConsoleMessage(level: .log, message: "message \($0)") }))
        #expect(state.screenRows().contains { $0.contains("message 1") && !$0.contains("message 10") })
        state.press(.down, times: 5, .control)
        #expect(state.panel.scroll == 5)
        #expect(state.screenRows().contains { $0.contains("message 6") })
    }

    @Test func thePanelKeepsEarlierRuns() {
        var state = EditorState.make("x")
        state.run(answering: ScriptRunResult(value: .string("first")))
        state.run(answering: ScriptRunResult(value: .string("second")))
        #expect(state.screenRows().contains { $0.contains("second") })
        state.press(.function(6))
        state.press(.left)
        #expect(state.screenRows().contains { $0.contains("first") })
        #expect(state.screenRows().contains { $0.contains("(1 of 2)") })
    }

    @Test func quitWithoutChangesQuitsAtOnce() {
        var state = EditorState.make("saved script")
        let effects = state.control("q")
        #expect(effects == [.quit(EditorOutcome(script: "saved script", hasUnsavedChanges: false, reason: .quit,
                                                document: EditorState.siteDocument))])
    }

    @Test func quitWithChangesAsksFirst() {
        var state = EditorState.make()
        state.type("x")
        #expect(state.control("q") == [])
        guard case .question(.quit) = state.overlay else {
            Issue.record("expected the quit question")
            return
        }
        #expect(state.screenRows().last?.contains("Unsaved changes. Quit anyway?") == true)
        state.type("n")
        #expect(state.text == "x")
        guard case .none = state.overlay else {
            Issue.record("expected the question to close")
            return
        }
        state.control("q")
        let effects = state.handle(.key(KeyEvent(.character("y"))))
        #expect(effects == [.quit(EditorOutcome(script: "x", hasUnsavedChanges: true, reason: .quit, document: EditorState.siteDocument))])
        #expect(state.handle(.key(KeyEvent(.character("z")))) == [])
    }

    @Test func quitQuestionOffersSaveAndQuit() {
        var state = EditorState.make()
        state.type("x")
        state.control("q")
        let save = state.handle(.key(KeyEvent(.character("s"))))
        #expect(save == [.save(EditorState.siteDocument, code: "x", revision: state.history.revision)])
        let receipt = SaveReceipt(document: EditorState.siteDocument, message: "Saved")
        let quit = state.handle(.host(.saved(receipt, revision: state.history.revision)))
        #expect(quit == [.quit(EditorOutcome(script: "x", hasUnsavedChanges: false, reason: .quit, document: EditorState.siteDocument))])
    }

    @Test func saveMarksTheRevisionSaved() {
        var state = EditorState.make()
        state.type("abc")
        let effects = state.control("s")
        guard case .save(let document, let code, let revision) = effects.first else {
            Issue.record("expected a save effect")
            return
        }
        #expect(document == EditorState.siteDocument)
        #expect(code == "abc")
        state.type("d")
        _ = state.handle(.host(.saved(SaveReceipt(document: document, message: "Saved for example.com"), revision: revision)))
        // Typed after the save started: the saved text is "abc", the document "abcd".
        #expect(state.hasUnsavedChanges)
        #expect(state.screenRows().last?.contains("Saved for example.com") == true)
        state.control("s")
        _ = state.handle(.host(.saved(SaveReceipt(document: document, message: "Saved"), revision: state.history.revision)))
        #expect(!state.hasUnsavedChanges)
    }

    @Test func saveFailureIsShown() {
        var state = EditorState.make("a")
        state.control("s")
        _ = state.handle(.host(.failed(.save, "disk full")))
        #expect(state.message == .error("Could not save: disk full"))
        #expect(state.screenRows().last?.contains("Could not save: disk full") == true)
    }

    @Test func terminationEndsWithoutAsking() {
        var state = EditorState.make()
        state.type("x")
        let effects = state.handle(.terminate(.terminalClosed))
        #expect(effects == [.quit(EditorOutcome(script: "x", hasUnsavedChanges: true, reason: .terminalClosed,
                                                document: EditorState.siteDocument))])
    }

    @Test func missingFeaturesAreNotOffered() {
        var state = EditorState.make(features: .none)
        let hints = state.screenRows().last ?? ""
        #expect(hints.contains("Run"))
        #expect(!hints.contains("Save"))
        #expect(!hints.contains("Examples"))
        #expect(state.control("s") == [])
        #expect(state.message?.isError == true)
        #expect(state.control("e") == [])
        #expect(state.control("o") == [])
        state.control("n")
        guard case .none = state.overlay else {
            Issue.record("the form must not open without a host callback")
            return
        }
    }
}

/// Issue 18, items 1 and 2: Ctrl-S writes into the script on screen, and never over a file that
/// changed since it was read.
@Suite("Editor: saving into the script on screen, and conflicts")
struct EditorSaveConflictTests {
    static let named = ScriptDocument(id: "named001", name: "Hide ads", role: .named, matchPatterns: ["*://*/*"],
                                      runAt: "document-end")

    static func conflicted(_ change: ScriptConflict.Change = .changed(theirs: "theirs();")) -> EditorState {
        var state = EditorState.make("mine();")
        state.press(.end)
        state.type(" more();")
        guard case .save(let document, _, let revision)? = state.control("s").first else { return state }
        _ = state.handle(.host(.saveConflict(ScriptConflict(document: document, path: "/lib/example-com.user.js", change: change),
                                             revision: revision)))
        return state
    }

    @Test func ctrlSSavesTheOpenedScriptAndTheTitleBarNamesIt() {
        var state = EditorState.make("site()")
        #expect(state.screenRows().first?.contains("Site script for example.com") == true)
        state.control("o")
        _ = state.handle(.host(.scriptsListed([ScriptSummary(id: "named001", name: "Hide ads")])))
        #expect(state.press(.enter) == [.openScript(id: "named001")])
        _ = state.handle(.host(.scriptOpened(OpenedScript(document: Self.named, code: "hide()"))))
        #expect(state.text == "hide()")
        #expect(!state.hasUnsavedChanges)
        #expect(state.screenRows().first?.contains("Script “Hide ads”") == true, "\(state.screenRows().first ?? "")")
        state.type("x")
        #expect(state.control("s") == [.save(Self.named, code: "xhide()", revision: state.history.revision)])
    }

    @Test func aRefusedSaveOffersTheChoicesAndSavesNothing() {
        let state = Self.conflicted()
        guard case .conflict = state.overlay else {
            Issue.record("expected the conflict dialog")
            return
        }
        #expect(state.hasUnsavedChanges)
        let screen = state.screenRows().joined(separator: "\n")
        #expect(screen.contains("changed"), "\(screen)")
    }

    @Test func reloadTheirsReplacesTheTextUndoably() {
        var state = Self.conflicted()
        let effects = state.handle(.key(KeyEvent(.character("r"))))
        #expect(effects == [.reloadScript(EditorState.siteDocument)])
        _ = state.handle(.host(.scriptReloaded(OpenedScript(document: EditorState.siteDocument, code: "theirs();"))))
        #expect(state.text == "theirs();")
        #expect(!state.hasUnsavedChanges)
        state.control("z")
        #expect(state.text == "mine(); more();")
    }

    @Test func keepMineSavesTheTextAsANewScript() {
        var state = Self.conflicted()
        _ = state.handle(.key(KeyEvent(.character("k"))))
        guard case .form(let form) = state.overlay else {
            Issue.record("expected the naming form")
            return
        }
        #expect(form.name.text.contains("(mine)"))
        let effects = state.press(.enter)
        guard case .createScript(let script, _)? = effects.first else {
            Issue.record("expected a new script, got \(effects)")
            return
        }
        #expect(script.code == "mine(); more();")
        #expect(script.matchPatterns == ["*://example.com/*"])
    }

    @Test func showBothDrawsTheDifference() {
        var state = Self.conflicted()
        _ = state.handle(.key(KeyEvent(.character("d"))))
        let screen = state.screenRows().joined(separator: "\n")
        #expect(screen.contains("theirs();"))
        #expect(screen.contains("mine(); more();"))
    }

    @Test func escLeavesTheTextUnsaved() {
        var state = Self.conflicted()
        #expect(state.press(.escape) == [])
        guard case .none = state.overlay else {
            Issue.record("Esc should close the dialog")
            return
        }
        #expect(state.hasUnsavedChanges)
        #expect(state.text == "mine(); more();")
    }

    @Test func aDeletedFileCanOnlyBeKeptAsANewScript() {
        var state = Self.conflicted(.deleted)
        #expect(state.handle(.key(KeyEvent(.character("r")))) == [])
        guard case .conflict = state.overlay else {
            Issue.record("there is no version of theirs to load")
            return
        }
    }
}

@Suite("Editor: examples, scripts and the naming form")
struct EditorPickerTests {
    static let examples = [
        ScriptExample(name: "Title", code: "document.title", summary: "The page's title"),
        ScriptExample(name: "Links", code: "document.links.length", summary: "How many links"),
    ]

    @Test func examplesMenuReplacesTheScriptUndoably() {
        var state = EditorState.make("mine")
        #expect(state.control("e") == [.loadExamples])
        _ = state.handle(.host(.examplesLoaded(Self.examples)))
        #expect(state.screenRows().contains { $0.contains("Links") && $0.contains("How many links") })
        state.press(.down)
        state.press(.enter)
        #expect(state.text == "document.links.length")
        state.control("z")
        #expect(state.text == "mine")
    }

    @Test func examplesMenuFiltersAsYouType() {
        var state = EditorState.make()
        state.control("e")
        _ = state.handle(.host(.examplesLoaded(Self.examples)))
        state.type("lin")
        state.press(.enter)
        #expect(state.text == "document.links.length")
    }

    @Test func escCancelsTheMenu() {
        var state = EditorState.make("mine")
        state.control("e")
        _ = state.handle(.host(.examplesLoaded(Self.examples)))
        state.press(.escape)
        guard case .none = state.overlay else {
            Issue.record("Esc should close the menu")
            return
        }
        #expect(state.text == "mine")
    }

    static let settings = ScriptFormSettings(
        name: SlashlessName(),
        matchPatterns: PatternListFormat(canBecomeValid: { _ in true }, problem: { $0.contains("://") ? nil : "missing scheme" }),
        runAtChoices: ["document-idle", "document-start"],
        defaultMatchPatterns: ["*://example.com/*"]
    )

    @Test func formRefusesKeystrokesTheValidatorRefuses() {
        var state = EditorState.make("code", formSettings: Self.settings)
        state.control("n")
        state.type("a/b")
        guard case .form(let form) = state.overlay else {
            Issue.record("expected the form")
            return
        }
        #expect(form.name.text == "ab")
        #expect(form.name.cursor == 2)
    }

    @Test func formShowsWhyAPatternIsInvalidAndWillNotSubmit() {
        var state = EditorState.make("code", formSettings: Self.settings)
        state.control("n")
        state.type("Mine")
        state.press(.tab)
        state.type(" example.org")
        #expect(state.screenRows().contains { $0.contains("example.org: missing scheme") })
        #expect(state.press(.enter) == [])
        state.press(.backspace, times: 12)
        let effects = state.press(.enter)
        let expected = NamedScript(name: "Mine", code: "code", matchPatterns: ["*://example.com/*"], runAt: "document-idle")
        #expect(effects == [.createScript(expected, revision: state.history.revision)])
        let created = ScriptDocument(id: "new00001", name: "Mine", role: .named, matchPatterns: ["*://example.com/*"],
                                     runAt: "document-idle")
        _ = state.handle(.host(.scriptCreated(created, revision: state.history.revision)))
        guard case .none = state.overlay else {
            Issue.record("the form should close after saving")
            return
        }
        #expect(state.document == created)
        #expect(state.screenRows().first?.contains("Script “Mine”") == true)
    }

    @Test func formSaveFailureStaysOpen() {
        var state = EditorState.make("code", formSettings: Self.settings)
        state.control("n")
        state.type("Mine")
        _ = state.press(.enter)
        _ = state.handle(.host(.failed(.createScript, "name taken")))
        guard case .form(let form) = state.overlay else {
            Issue.record("the form should stay open")
            return
        }
        #expect(form.saveError == "Could not save the new script: name taken")
        #expect(!form.isSaving)
    }

    /// A field the user never touched shows its problem too: the first Enter lists them all.
    @Test func everyProblemShowsOnTheFirstSubmit() {
        var settings = Self.settings
        settings.defaultMatchPatterns = ["example.com"]
        var state = EditorState.make("code", formSettings: settings)
        state.control("n")
        #expect(state.press(.enter) == [])
        let rows = state.screenRows()
        #expect(rows.contains { $0.contains("Give the script a name.") }, "\(rows.joined(separator: "\n"))")
        #expect(rows.contains { $0.contains("example.com: missing scheme") }, "\(rows.joined(separator: "\n"))")
        state.type("Mine")
        guard case .form(let form) = state.overlay else {
            Issue.record("the form should stay open")
            return
        }
        #expect(form.name.text == "Mine", "the cursor is not in the first field with a problem")
    }

    /// A problem longer than the form is wide is wrapped between words: no row of it ends or
    /// starts inside a word.
    @Test func formProblemsWrapAtWordBoundaries() throws {
        let problem = "`www.google.*` is refused: it has no scheme: a match pattern starts with `*://`, `http://`, `https://` or `file://`"
        var settings = Self.settings
        settings.matchPatterns = PatternListFormat(canBecomeValid: { _ in true }, problem: { _ in problem })
        settings.defaultMatchPatterns = ["www.google.*"]
        var state = EditorState.make("code", columns: 60, rows: 30, formSettings: settings)
        state.control("n")
        state.type("Mine")
        #expect(state.press(.enter) == [])
        let rows = state.screenRows()
        let first = try #require(rows.firstIndex { $0.contains("www.google.*: `www.google.*`") }, "\(rows.joined(separator: "\n"))")
        let start = try #require(rows[first].range(of: "www.google.*: `")).lowerBound
        let column = rows[first].distance(from: rows[first].startIndex, to: start)
        var lines: [String] = []
        for row in rows[first...] {
            let line = String(Array(row).dropFirst(column).prefix { $0 != "│" }).trimmingCharacters(in: .whitespaces)
            guard !line.isEmpty else { break }
            lines.append(line)
        }
        #expect(lines.count > 2, "\(rows.joined(separator: "\n"))")
        #expect(lines.joined(separator: " ") == "www.google.*: " + problem, "\(lines)")
    }

    @Test func emptyNameIsAProblemOnSubmit() {
        var state = EditorState.make("code", formSettings: Self.settings)
        state.control("n")
        #expect(state.press(.enter) == [])
        #expect(state.screenRows().contains { $0.contains("Give the script a name.") })
    }
}

/// A name field's format that refuses `/` as it is typed, for the form's keystroke tests.
private struct SlashlessName: FieldFormat {
    func applying(_ replacement: String, in range: NSRange, to text: String) -> String? {
        guard !replacement.contains("/"), let bounds = Range(range, in: text) else { return nil }
        return text.replacingCharacters(in: bounds, with: replacement)
    }

    func value(from text: String) -> String? { text.isEmpty ? nil : text }
    func text(for value: String) -> String { value }
    func problem(with text: String) -> String? { text.isEmpty ? "Give the script a name." : nil }
}
