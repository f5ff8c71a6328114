import Testing
import UserScripts

/// Whether a version saved in the user's editor can take the place of the one before
/// (`browse --watch`, `run --watch`): a block not closed yet, a block that went away from a
/// userscript, and a line the library would refuse to save cannot; plain JavaScript and a sound
/// block can.
struct SavedVersionTests {
    @Test func aSoundBlockCanBeUsed() {
        let script = UserScript(text: "// ==UserScript==\n// @name Tidy\n// @match https://example.com/*\n// ==/UserScript==\n1\n")
        #expect(script.unusableMetadata(expectingBlock: true).isEmpty)
    }

    @Test func aBlockNotClosedCannotBeUsedAndSaysWhere() {
        let script = UserScript(text: "// ==UserScript==\n// @name Tidy\n// @match https://example.com/*\n1\n")
        let problems = script.unusableMetadata(expectingBlock: true)
        #expect(problems.count == 1)
        #expect(problems.first?.hasPrefix("line 1: ") == true, "\(problems)")
        #expect(problems.first?.contains("never closed") == true, "\(problems)")
    }

    @Test func aBlockThatWentAwayCannotBeUsedWhereOneWasExpected() {
        let script = UserScript(text: "document.title\n")
        #expect(script.unusableMetadata(expectingBlock: true).first?.contains("block is gone") == true)
        #expect(script.unusableMetadata(expectingBlock: false).isEmpty)
    }

    @Test func aRuleTheLibraryWouldRefuseCannotBeUsed() {
        let script = UserScript(text: "// ==UserScript==\n// @name Tidy\n// @match https://exa mple.com/*\n// ==/UserScript==\n1\n")
        let problems = script.unusableMetadata(expectingBlock: true)
        #expect(problems.first?.hasPrefix("line 3: ") == true, "\(problems)")
    }
}
