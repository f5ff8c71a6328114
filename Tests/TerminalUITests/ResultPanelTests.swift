import ScriptConsole
import Testing
@testable import TerminalUI

@Suite("Result panel: values, console and the runs of the session")
struct ResultPanelTests {
    /// The lines of `value` as the panel lays them out, as plain text with their indentation.
    static func text(of value: ResultValue, width: Int = 60, toggled: Set<[Int]> = []) -> [String] {
        ValueLayout.lines(of: value, prefix: .plain("← "), indent: 0, width: width, toggled: toggled).map(Self.text)
    }

    static func text(_ line: PanelLine) -> String {
        String(repeating: " ", count: line.indent) + line.spans.map(\.text).joined()
    }

    static func numbers(_ range: ClosedRange<Int>) -> ResultValue {
        .array(range.map { .number(String($0)) })
    }

    @Test func smallContainersStayOnOneLine() {
        #expect(Self.text(of: Self.numbers(1...3)) == ["← [1, 2, 3]"])
        #expect(Self.text(of: .object([.init(key: "a", value: .null), .init(key: "b", value: .bool(true))])) == [#"← {"a": null, "b": true}"#])
    }

    @Test func nestedObjectsAreIndentedTwoColumnsALevel() {
        let value = ResultValue.object([
            .init(key: "name", value: .string("x")),
            .init(key: "list", value: .array([.object([.init(key: "id", value: .number("1"))]), Self.numbers(1...9)])),
        ])
        #expect(Self.text(of: value, width: 30) == [
            "← {",
            #"    "name": "x","#,
            #"    "list": ["#,
            #"      {"id": 1},"#,
            "      [",
            "        1,",
            "        2,",
            "        3,",
            "        4,",
            "        5,",
            "        6,",
            "        7,",
            "        8,",
            "        9",
            "      ]",
            "    ]",
            "  }",
        ])
    }

    @Test func deepObjectsStartFoldedAndUnfoldByPath() throws {
        func nest(_ depth: Int) -> ResultValue {
            depth == 0 ? .object((1...9).map { .init(key: "k\($0)", value: .number("\($0)")) })
                : .object([.init(key: "level\(depth)", value: nest(depth - 1)), .init(key: "pad", value: Self.numbers(1...9))])
        }
        let folded = Self.text(of: nest(3), width: 40)
        let line = try #require(folded.first { $0.contains("\"level1\"") })
        #expect(line.hasSuffix(#""level1": {…} 9 keys,"#), "\(folded)")
        let opened = Self.text(of: nest(3), width: 40, toggled: [[0, 0, 0]])
        #expect(opened.contains { $0.contains("\"level1\": {") })
        #expect(opened.count > folded.count)
    }

    @Test func longArraysShowTheirFirstItemsAndALineForTheRest() {
        let lines = Self.text(of: Self.numbers(1...250))
        #expect(lines.count == 1 + ValueLayout.arrayPreview + 2)
        #expect(lines[ValueLayout.arrayPreview + 1] == "    … 150 more items (Enter shows them)")
        let all = Self.text(of: Self.numbers(1...250), toggled: [[-1]])
        #expect(all.count == 1 + 250 + 1)
    }

    @Test func domNodesAreDescribedNotQuoted() {
        let value = ResultValue.object([.init(key: "field", value: .node("<input#q.search name=q>"))])
        #expect(Self.text(of: value) == [#"← {"field": <input#q.search name=q>}"#])
        let hostile = Self.text(of: .node("<div#\u{1B}[2J>"))
        #expect(!hostile.joined().contains("\u{1B}"), "a node's text reached the terminal unescaped")
    }

    @Test func consoleTableIsDrawnAsATable() {
        let line = ConsoleMessage(level: .table, message: "", table: ConsoleTable(columns: ["(index)", "name", "n"],
                                                                                rows: [["0", "alpha", "1"], ["1", "b", "22"]]))
        #expect(ConsoleLayout.lines(of: line).map(Self.text) == [
            "[table] ",
            "┌─────────┬───────┬────┐",
            "│ (index) │ name  │ n  │",
            "├─────────┼───────┼────┤",
            "│ 0       │ alpha │ 1  │",
            "│ 1       │ b     │ 22 │",
            "└─────────┴───────┴────┘",
        ])
    }

    @Test func groupsIndentTheirLinesAndTracesShowTheirStack() {
        let console = [
            ConsoleMessage(level: .group, message: "outer"),
            ConsoleMessage(level: .log, message: "in outer", depth: 1),
            ConsoleMessage(level: .groupCollapsed, message: "inner", depth: 1),
            ConsoleMessage(level: .warn, message: "in inner", depth: 2),
            ConsoleMessage(level: .trace, message: "here", depth: 2, stack: [StackFrame(function: "check", line: 3, column: 5, isInScript: true)]),
            ConsoleMessage(level: "timeEnd", message: "t: 3 ms"),
        ]
        #expect(ConsoleLayout.lines(of: console).map(Self.text) == [
            "▾ outer",
            "  [log] in outer",
            "  ▾ inner",
            "    [warn] in inner",
            "    [trace] here",
            "        at check (line 3, column 5)",
            "[timeEnd] t: 3 ms",
        ])
    }

    @Test func runsAreKeptAndBrowsedWithLeftAndRight() {
        var state = EditorState.make("x")
        for number in 1...3 {
            state.run(answering: ScriptRunResult(value: .string("answer \(number)")))
        }
        #expect(state.screenRows().contains { $0.contains("run 3 (3 of 3)") })
        state.press(.function(6))
        #expect(state.focus == .panel)
        state.press(.left)
        state.press(.left)
        #expect(state.screenRows().contains { $0.contains(#""answer 1""#) })
        state.press(.left)
        #expect(state.screenRows().contains { $0.contains("run 1 (1 of 3)") })
        state.press(.right)
        #expect(state.screenRows().contains { $0.contains(#""answer 2""#) })
        state.press(.function(6))
        #expect(state.focus == .editor)
        state.type("y")
        #expect(state.text == "yx")
    }

    @Test func enterInTheFocusedPanelFoldsAndUnfolds() {
        var state = EditorState.make("x", rows: 40)
        state.run(answering: ScriptRunResult(value: .object([.init(key: "items", value: Self.numbers(1...20))])))
        #expect(state.screenRows().contains { $0.contains("\"items\": [") })
        state.press(.function(6))
        state.press(.down)
        state.press(.enter)
        #expect(state.screenRows().contains { $0.contains("\"items\": […] 20 items") })
        state.press(.enter)
        #expect(state.screenRows().contains { $0.contains("\"items\": [") && !$0.contains("…") })
    }

    @Test func theHistoryKeepsTheNewestRuns() {
        var panel = ResultPanel()
        for number in 1...(ResultPanel.historyLimit + 5) {
            panel.append(RunRecord(number: number, script: "run \(number)", outcome: .failure("gone")))
        }
        #expect(panel.runs.count == ResultPanel.historyLimit)
        #expect(panel.runs.first?.number == 6)
        #expect(panel.current?.number == ResultPanel.historyLimit + 5)
    }
}
