import Foundation
import ActionExtensionSupport
import Testing

@Suite("The reply to Action.js's finalize")
struct ActionReplyTests {
    @Test("carries the script exactly, under the key finalize reads")
    func carriesScript() throws {
        let script = "document.title = \"</script>\\n\" + `${1}`; // 👨‍👩‍👧‍👦\r\n"
        #expect(ActionReply.finalizeArgument(script: script) == ["customJavaScript": script])
        let actionScript = try String(contentsOf: URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/PageRuntime/Resources/Action.js"), encoding: .utf8)
        #expect(actionScript.contains("parameters.\(ActionReply.scriptKey)"))
    }

    @Test("the run keys are the ones Action.js sends")
    func runKeys() throws {
        let actionScript = try String(contentsOf: URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/PageRuntime/Resources/Action.js"), encoding: .utf8)
        #expect(actionScript.contains("\"\(ActionPage.urlKey)\": document.URL"))
        #expect(actionScript.contains("\"\(ActionPage.titleKey)\": document.title"))
    }
}
