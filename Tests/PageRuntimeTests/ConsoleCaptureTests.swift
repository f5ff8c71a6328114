import Engines
import Foundation
import ScriptConsole
import SystemSupport
import TestSupport
import Testing
@testable import PageRuntime

/// Every console method the browsers' consoles have is captured, with its structure.
@Suite(.serialized)
struct ConsoleCaptureTests {
    @Test(arguments: PageFixtures.engines)
    func capturesEveryConsoleMethod(engine: Engine) async throws {
        let server = try LoopbackServer(responses: PageFixtures.strictPage(title: "Console", body: "<input id=\"q\" class=\"search\" name=\"q\">"))
        defer { server.stop() }
        try await PageFixtures.onPage(engine, server) { page in
            let result = try await page.script("""
                console.log("plain", 1, {a: [1]}, document.querySelector("input"));
                console.info("%s is %d years and %f%%", "Ada", 36.6, 1.5);
                console.warn("careful"); console.error("bad"); console.debug("detail");
                console.dir({deep: {x: 1}});
                console.dirxml(document.querySelector("input"));
                console.table([{name: "a", size: 1}, {name: "b", extra: true}]);
                console.table({first: 1, second: 2});
                console.count(); console.count(); console.count("apples"); console.countReset(); console.count(); console.countReset("pears");
                console.time("t"); console.timeLog("t", "midway"); console.timeEnd("t"); console.timeEnd("t");
                console.group("outer"); console.log("inside"); console.groupCollapsed("inner"); console.log("deeper"); console.groupEnd(); console.groupEnd(); console.groupEnd();
                console.log("outside");
                console.assert(1 === 1, "not shown"); console.assert(false, "shown", 2);
                function traced() { console.trace("here"); }
                traced();
                return "done"
                """)
            #expect(result.error == nil, "\(String(describing: result.error))")
            let lines = result.console
            func entry(_ level: ConsoleMessage.Level, _ message: String) -> ConsoleMessage? {
                lines.first { $0.level == level && $0.message == message }
            }
            #expect(entry(.log, "plain 1 {\"a\":[1]} <input#q.search name=q>") != nil)
            #expect(entry(.info, "Ada is 36 years and 1.5%") != nil)
            #expect(entry(.warn, "careful") != nil && entry(.error, "bad") != nil && entry(.debug, "detail") != nil)
            #expect(entry(.dir, "{\"deep\":{\"x\":1}}") != nil)
            #expect(entry(.dirxml, "<input#q.search name=q>") != nil)
            let tables = lines.filter { $0.level == .table }.compactMap(\.table)
            #expect(tables.first == ConsoleTable(columns: ["(index)", "name", "size", "extra"], rows: [["0", "a", "1", ""], ["1", "b", "", "true"]]))
            #expect(tables.last == ConsoleTable(columns: ["(index)", "Value"], rows: [["first", "1"], ["second", "2"]]))
            #expect(lines.filter { $0.level == .count }.map(\.message) == ["default: 1", "default: 2", "apples: 1", "default: 1"])
            #expect(entry(.warn, "Count for 'pears' does not exist") != nil)
            #expect(lines.contains { $0.level == .timeLog && $0.message.hasPrefix("t: ") && $0.message.hasSuffix(" ms midway") })
            #expect(lines.contains { $0.level == .timeEnd && $0.message.hasPrefix("t: ") })
            #expect(entry(.warn, "Timer 't' does not exist") != nil)
            #expect(entry(.group, "outer")?.depth == 0)
            #expect(entry(.log, "inside")?.depth == 1)
            #expect(entry(.groupCollapsed, "inner")?.depth == 1)
            #expect(entry(.log, "deeper")?.depth == 2)
            #expect(entry(.log, "outside")?.depth == 0)
            #expect(lines.filter { $0.level == .assert }.map(\.message) == ["Assertion failed: shown 2"])
            let trace = try #require(lines.first { $0.level == .trace })
            #expect(trace.message == "here")
            #expect(trace.stack.first?.function == "traced")
            if engine == .chromium {
                #expect(trace.stack.first?.isInScript == true)
                #expect(trace.stack.first?.line == 13)
            }
            #expect(trace.json["stack"]?.arrayValue?.isEmpty == false)

            let extra = try await page.script("console.timeStamp('mark'); return typeof console.timeStamp")
            #expect(extra.value == "function")
            #expect(extra.console == [ConsoleMessage(level: "timeStamp", message: "mark")], "a method beyond the standard ones is kept under its own name")
        }
    }
}
