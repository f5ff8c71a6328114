@testable import EditorSession
import Injection
import SystemSupport
import TerminalUI
import Testing

/// What the editor's panel receives from a run: the bridge from Injection's results to the
/// editor's values keeps everything the panel draws.
@Suite("Editor session: results for the panel")
struct RunResultBridgeTests {
    @Test func consoleLinesKeepTheirGroupDepthTableAndStack() {
        let message = ConsoleMessage(
            level: .trace, message: "here", depth: 2,
            table: Injection.ConsoleTable(columns: ["(index)", "a"], rows: [["0", "1"]]),
            stack: [StackFrame(function: "check", line: 3, column: 5, isInScript: true),
                    StackFrame(function: "", url: "https://example.com/app.js", line: 10, column: 4)])
        let line = ConsoleLine(message)
        #expect(line == ConsoleLine(level: .trace, message: "here", depth: 2,
                                    table: TerminalUI.ConsoleTable(columns: ["(index)", "a"], rows: [["0", "1"]]),
                                    stack: ["check (line 3, column 5)", "(anonymous) (https://example.com/app.js:10:4)"]))
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
