import Foundation
import PageRuntime
import ScriptConsole
import SystemSupport
import Testing

/// `run`'s output, rendered without a browser: what goes to standard output and what to standard
/// error, escaped; the `--json` object with its screenshot and timing; a failed run's object.
struct ReportRendererTests {
    static func result(value: JSONValue?, error: ScriptError? = nil) throws -> ScriptResult {
        try ScriptResult(
            context: PageContext(url: "https://example.com/\u{1B}[2J", title: "Inbox\u{202E}"), value: value,
            console: [ConsoleMessage(level: "log", message: "first\nsecond")], error: error,
            dialogs: [ScriptDialog(kind: "confirm", message: "Sure?", accepted: true)])
    }

    @Test func aValueGoesToStandardOutputAndEverythingAboutItToStandardError() throws {
        let lines = ReportRenderer.lines(of: .script(try Self.result(value: .string("Hello")), screenshot: "/tmp/shot.png"), asJSON: false)
        #expect(lines == [
            .error("Inbox\\u{202E} <https://example.com/\\e[2J>"),
            .error("screenshot: /tmp/shot.png"),
            .error("console.log: first"),
            .error("  second"),
            .error("confirm: Sure? -> accepted"),
            .output("\"Hello\""),
        ])
    }

    @Test func aScriptThatThrewPrintsItsErrorAndNoValue() throws {
        let error = ScriptError(name: "TypeError", message: "x is undefined", line: 3, column: 7)
        let report = RunReport.script(try Self.result(value: nil, error: error), screenshot: nil)
        let lines = ReportRenderer.lines(of: report, asJSON: false)
        #expect(lines.last == .error("TypeError: x is undefined (line 3, column 7)"))
        #expect(!lines.contains { $0.stream == .output })
        #expect(report.ending == .scriptFailed)
    }

    @Test func theJSONObjectCarriesTheScreenshotAndTheTiming() throws {
        let timeline = PhaseTimeline()
        timeline.end("prepare")
        let lines = ReportRenderer.lines(of: .script(try Self.result(value: .number(2)), screenshot: "/tmp/shot.png"), asJSON: true,
                                         timeline: timeline)
        #expect(lines.count == 1)
        let object = try #require(try? JSONValue(parsing: lines[0].text))
        guard case let .object(members) = object else { Issue.record("not an object: \(lines[0].text)"); return }
        #expect(members.map(\.key) == ["url", "title", "httpStatus", "value", "console", "dialogs", "error", "screenshot", "timing"])
        #expect(members.first { $0.key == "url" }?.value == .string("https://example.com/\u{1B}[2J"))
    }

    @Test func aRunThatDidNotCompleteStillPrintsItsObjectWithJSON() {
        let failure = PageRunner.Failure.injection(.timedOut(seconds: 5))
        let lines = ReportRenderer.failureLines(failure, address: "https://example.com/", asJSON: true)
        #expect(lines.first?.stream == .error)
        #expect(lines.first?.text.hasPrefix("pagescript: ") == true)
        let object = lines.last.flatMap { try? JSONValue(parsing: $0.text) }
        guard case let .object(members)? = object, case let .object(error)? = members.first(where: { $0.key == "error" })?.value else {
            Issue.record("no error object: \(lines)")
            return
        }
        #expect(error.first { $0.key == "name" }?.value == .string("Timeout"))
        #expect(ReportRenderer.failureLines(failure, address: "https://example.com/", asJSON: false).allSatisfy { $0.stream == .error })
    }

    @Test func aMessageOfSeveralLinesKeepsItsLinesAndEscapesEach() {
        #expect(ReportRenderer.messageLines("first\u{07}\nsecond\n\n") == [.error("pagescript: first\\u{7}"), .error("  second")])
    }
}
