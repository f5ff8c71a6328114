@testable import EditorSession
import PageRuntime
import ScriptConsole
import SystemSupport
import TerminalUI
import Testing

/// What the editor's panel receives from a run: the bridge from PageRuntime's results to the
/// editor's values keeps everything the panel draws.
@Suite("Editor session: results for the panel")
struct RunResultBridgeTests {
    @Test func consoleLinesKeepTheirGroupDepthTableAndStack() throws {
        let message = ConsoleMessage(
            level: .trace, message: "here", depth: 2,
            table: ConsoleTable(columns: ["(index)", "a"], rows: [["0", "1"]]),
            stack: [StackFrame(function: "check", line: 3, column: 5, isInScript: true),
                    StackFrame(function: "", url: "https://example.com/app.js", line: 10, column: 4)])
        let result = ScriptRunResult(try ScriptResult(context: PageContext(url: "https://example.com/", title: "A"), value: nil,
                                                      console: [message], error: nil))
        #expect(result.console == [message])
        #expect(result.console[0].stack.map(\.description) == ["check (line 3, column 5)", "(anonymous) (https://example.com/app.js:10:4)"])
    }

    @Test func aNodeMarkerBecomesANodeAndOtherObjectsStayObjects() {
        let json: JSONValue = ["field": ["$node": "<input#q.search name=q>"], "n": 1]
        #expect(ResultValue(json) == .object([
            .init(key: "field", value: .node("<input#q.search name=q>")),
            .init(key: "n", value: .number("1")),
        ]))
        #expect(ResultValue(["$node": 1]) == .object([.init(key: "$node", value: .number("1"))]))
    }
}
