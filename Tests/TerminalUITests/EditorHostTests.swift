import Foundation
import Testing
@testable import TerminalUI

@Suite("Editor: running, saving, quitting")
struct EditorHostTests {
    @Test func controlRAsksTheHostToRunTheScript() {
        var state = EditorState.make("1 + 1")
        #expect(state.control("r") == [.runScript("1 + 1")])
        #expect(state.isRunning)
        #expect(state.control("r") == [])
        _ = state.handle(.host(.runFinished(ScriptRunResult(valueJSON: "2"))))
        #expect(!state.isRunning)
        #expect(state.panel != nil)
    }

    @Test func runResultOpensThePanelWithValueAndConsole() {
        var state = EditorState.make("x")
        state.control("r")
        let result = ScriptRunResult(valueJSON: "{\"a\":1}", console: [
            ConsoleLine(level: .log, message: "hello"),
            ConsoleLine(level: .warn, message: "careful\nsecond line"),
        ])
        _ = state.handle(.host(.runFinished(result)))
        let rows = state.screenRows()
        #expect(rows.contains { $0.contains("[log] hello") })
        #expect(rows.contains { $0.contains("[warn] careful") })
        #expect(rows.contains { $0.contains("       second line") })
        #expect(rows.contains { $0.contains("← {\"a\":1}") })
    }

    @Test func errorMovesTheCursorToItsLineAndColumn() throws {
        let script = (1...40).map { "let v\($0) = \($0);" }.joined(separator: "\n") + "\nconst 🎉x = boom();"
        var state = EditorState.make(script)
        state.control("r")
        // Column 13 counts UTF-16 units: "const " is 6, "🎉" 2, "x = " 4, so it is the "b",
        // the twelfth character.
        let exception = ScriptException(name: "ReferenceError", message: "boom is not defined", line: 41, column: 13)
        _ = state.handle(.host(.runFinished(ScriptRunResult(console: [], exception: exception))))
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
        state.control("r")
        _ = state.handle(.host(.runFinished(ScriptRunResult(valueJSON: "1"))))
        #expect(state.layout.panel != nil)
        state.press(.escape)
        #expect(state.panel == nil)
        #expect(state.layout.visibleTextRows == 22)
    }

    @Test func pageTextInThePanelIsEscaped() {
        var state = EditorState.make("x")
        state.control("r")
        let hostile = ScriptRunResult(console: [ConsoleLine(level: .log, message: "\u{1B}[2J\u{9B}31m\u{202E}txt")],
                                      exception: ScriptException(name: "E\u{7}", message: "m\u{1B}]0;pwned\u{7}"))
        _ = state.handle(.host(.runFinished(hostile)))
        let rows = state.screenRows().joined(separator: "\n")
        #expect(rows.contains("\\e[2J\\u{9B}31m\\u{202E}txt"))
        #expect(rows.contains("E\\u{7}: m\\e]0;pwned\\u{7}"))
        #expect(!rows.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x9B || $0.value == 0x202E })
    }

    @Test func runFailureShowsInThePanel() {
        var state = EditorState.make("x")
        state.control("r")
        _ = state.handle(.host(.runFailed("The browser is gone.")))
        #expect(!state.isRunning)
        #expect(state.screenRows().contains { $0.contains("The browser is gone.") })
    }

    @Test func panelScrollsWithAltArrows() {
        var state = EditorState.make("x")
        state.control("r")
        let console = (1...50).map { ConsoleLine(level: .log, message: "message \($0)") }
        _ = state.handle(.host(.runFinished(ScriptRunResult(console: console))))
        #expect(state.screenRows().contains { $0.contains("message 1") && !$0.contains("message 10") })
        state.press(.down, times: 5, .alt)
        #expect(state.panel?.scroll == 5)
        #expect(state.screenRows().contains { $0.contains("message 6") })
    }

    @Test func quitWithoutChangesQuitsAtOnce() {
        var state = EditorState.make("saved script")
        let effects = state.control("q")
        #expect(effects == [.quit(EditorOutcome(script: "saved script", hasUnsavedChanges: false, reason: .quit))])
    }

    @Test func quitWithChangesAsksFirst() {
        var state = EditorState.make()
        state.type("x")
        #expect(state.control("q") == [])
        guard case .confirmQuit = state.overlay else {
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
        #expect(effects == [.quit(EditorOutcome(script: "x", hasUnsavedChanges: true, reason: .quit))])
        #expect(state.handle(.key(KeyEvent(.character("z")))) == [])
    }

    @Test func quitQuestionOffersSaveAndQuit() {
        var state = EditorState.make()
        state.type("x")
        state.control("q")
        let save = state.handle(.key(KeyEvent(.character("s"))))
        #expect(save == [.saveForSite(script: "x", revision: state.history.revision)])
        let quit = state.handle(.host(.siteSaved(revision: state.history.revision, message: "Saved")))
        #expect(quit == [.quit(EditorOutcome(script: "x", hasUnsavedChanges: false, reason: .quit))])
    }

    @Test func saveForSiteMarksTheRevisionSaved() {
        var state = EditorState.make()
        state.type("abc")
        let effects = state.control("s")
        guard case .saveForSite(let script, let revision) = effects.first else {
            Issue.record("expected a save effect")
            return
        }
        #expect(script == "abc")
        state.type("d")
        _ = state.handle(.host(.siteSaved(revision: revision, message: "Saved for example.com")))
        // Typed after the save started: the saved text is "abc", the document "abcd".
        #expect(state.hasUnsavedChanges)
        #expect(state.screenRows().last?.contains("Saved for example.com") == true)
        state.control("s")
        _ = state.handle(.host(.siteSaved(revision: state.history.revision, message: "Saved")))
        #expect(!state.hasUnsavedChanges)
    }

    @Test func saveFailureIsShown() {
        var state = EditorState.make("a")
        state.control("s")
        _ = state.handle(.host(.siteSaveFailed("disk full")))
        #expect(state.message == .error("Could not save: disk full"))
        #expect(state.screenRows().last?.contains("Could not save: disk full") == true)
    }

    @Test func terminationEndsWithoutAsking() {
        var state = EditorState.make()
        state.type("x")
        let effects = state.handle(.terminate(.signal(15)))
        #expect(effects == [.quit(EditorOutcome(script: "x", hasUnsavedChanges: true, reason: .signal(15)))])
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

@Suite("Editor: examples, scripts and the naming form")
struct EditorPickerTests {
    static let examples = [
        ScriptExample(name: "Title", code: "document.title"),
        ScriptExample(name: "Links", code: "document.links.length"),
    ]

    @Test func examplesMenuReplacesTheScriptUndoably() {
        var state = EditorState.make("mine")
        #expect(state.control("e") == [.loadExamples])
        _ = state.handle(.host(.examplesLoaded(Self.examples)))
        #expect(state.screenRows().contains { $0.contains("Links") })
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

    @Test func openingANamedScript() {
        var state = EditorState.make("old")
        #expect(state.control("o") == [.loadScriptNames])
        _ = state.handle(.host(.scriptNamesLoaded(["Dark mode", "Hide ads"])))
        state.press(.down)
        #expect(state.press(.enter) == [.openScript(name: "Hide ads")])
        let script = NamedScript(name: "Hide ads", code: "hide()", matchPatterns: ["*://*/*"], runAt: "document-end")
        _ = state.handle(.host(.scriptOpened(script)))
        #expect(state.text == "hide()")
        #expect(!state.hasUnsavedChanges)
        #expect(state.currentScript == script)
        #expect(state.screenRows().first?.contains("Hide ads") == true)
    }

    static let settings = ScriptFormSettings(
        name: FieldValidator(
            applyEdit: { replacement, range, text in
                replacement.contains("/") ? nil : FieldValidator.replacing(range, in: text, with: replacement)
            },
            problem: { $0.isEmpty ? "Give the script a name." : nil }
        ),
        matchPatterns: .patternList { $0.contains("://") ? nil : "missing scheme" },
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
        state.press(.tab)
        state.press(.right)
        let effects = state.press(.enter)
        let expected = NamedScript(name: "Mine", code: "code", matchPatterns: ["*://example.com/*"], runAt: "document-start")
        #expect(effects == [.saveNamedScript(expected, revision: state.history.revision)])
        _ = state.handle(.host(.namedScriptSaved(expected, revision: state.history.revision)))
        guard case .none = state.overlay else {
            Issue.record("the form should close after saving")
            return
        }
        #expect(state.currentScript?.name == "Mine")
    }

    @Test func formSaveFailureStaysOpen() {
        var state = EditorState.make("code", formSettings: Self.settings)
        state.control("n")
        state.type("Mine")
        _ = state.press(.enter)
        _ = state.handle(.host(.namedScriptSaveFailed("name taken")))
        guard case .form(let form) = state.overlay else {
            Issue.record("the form should stay open")
            return
        }
        #expect(form.saveError == "Could not save: name taken")
        #expect(!form.isSaving)
    }

    @Test func emptyNameIsAProblemOnSubmit() {
        var state = EditorState.make("code", formSettings: Self.settings)
        state.control("n")
        #expect(state.press(.enter) == [])
        #expect(state.screenRows().contains { $0.contains("Give the script a name.") })
    }
}
