import Testing
@testable import TerminalUI

@Suite("Editor: run, re-run, cancel, reload")
struct EditorRunKeysTests {
    static let page = PageInfo(title: "Example", url: "https://example.com/")

    @Test func controlRWhileRunningOffersToCancelAndRecoversThePage() {
        var state = EditorState.make("while (true) {}")
        #expect(state.control("r") == [.runScript(id: 1, script: "while (true) {}")])
        #expect(state.screenRows().last?.contains("^R Cancel…") == true, "the hint offers the cancel while it runs")
        #expect(state.control("r").isEmpty)
        #expect(state.screenRows().last?.contains("The script is still running. Cancel it?") == true)
        state.press(.character("n"))
        #expect(state.isRunning)
        state.control("r")
        #expect(state.press(.character("y")) == [.recoverPage])
        #expect(!state.isRunning)
        #expect(state.screenRows().contains { $0.contains("Cancelled; recovering the page…") })
        _ = state.handle(.host(.pageRecovered(Self.page, message: "Recovered the page: a new browser tab.")))
        #expect(state.screenRows().contains { $0.contains("Recovered the page: a new browser tab.") })
        // The cancelled run's answer, if it still comes, is ignored; the next run works.
        _ = state.handle(.host(.runFinished(id: 1, ScriptRunResult(value: .string("late")), duration: .seconds(30))))
        #expect(!state.screenRows().contains { $0.contains("late") })
        #expect(state.control("r") == [.runScript(id: 2, script: "while (true) {}")])
    }

    @Test func withoutRecoveryControlRSaysTheScriptIsStillRunning() {
        var features = EditorFeatures.all
        features.recoverPage = false
        var state = EditorState.make("1", features: features)
        state.control("r")
        #expect(state.control("r").isEmpty)
        #expect(state.message?.text == "The script is still running.")
    }

    @Test func altRRunsTheLastScriptAgainEvenAfterEditing() {
        var state = EditorState.make("first()")
        state.press(.character("r"), .alt)
        #expect(state.message?.text == "Nothing has run yet: Ctrl-R runs the script.")
        state.run(answering: ScriptRunResult(value: .null))
        state.press(.escape)
        state.type("x")
        #expect(state.press(.character("r"), .alt) == [.runScript(id: 2, script: "first()")])
    }

    @Test func f5ReloadsThePageOnce() {
        var state = EditorState.make("1")
        #expect(state.press(.function(5)) == [.reloadPage])
        #expect(state.press(.function(5)).isEmpty, "a second press while the first is under way")
        #expect(state.message?.text == "Still busy with the last request.")
        _ = state.handle(.host(.pageReloaded(PageInfo(title: "Reloaded", url: "https://example.com/"))))
        #expect(state.message?.text == "Reloaded the page.")
        #expect(state.screenRows().first?.contains("Reloaded") == true)
    }
}
