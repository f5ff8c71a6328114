import Batch
import Foundation
import PageRuntime
import ScriptConsole
import SystemSupport
import Testing

/// The shape of a record, which scripts downstream parse.
struct RecordTests {
    @Test func aRecordHasRunsFieldsBetweenItsIdentityAndTheBatchFields() throws {
        let result = ScriptResult(context: try PageContext(url: "https://a.example/", title: "A"), value: 42, console: [], error: nil)
        let record = BatchRecord(index: 7, input: " https://a.example/", requested: "https://a.example/", status: .ok,
                                 page: .completed(.script(result, screenshot: nil)), httpStatus: 200,
                                 startedAt: Date(timeIntervalSince1970: 1_748_779_200.1234), duration: 0.0874, attempts: 1, engine: "webkit")
        #expect(record.line == #"{"index":7,"input":" https://a.example/","requested":"https://a.example/","status":"ok","url":"https://a.example/","title":"A","value":42,"console":[],"dialogs":[],"error":null,"httpStatus":200,"startedAt":"2025-06-01T12:00:00.123Z","durationMs":87,"attempts":1,"engine":"webkit","schema":1}"#)
    }

    @Test(arguments: [(false, #"{"url":null,"title":null,"httpStatus":null,"value":null,"console":[],"dialogs":[],"error":{"name":"Timeout","message":"m","line":null,"column":null}}"#),
                      (true, #"{"url":null,"title":null,"httpStatus":null,"scripts":[],"error":{"name":"Timeout","message":"m","line":null,"column":null}}"#)])
    func aFailedPageHasTheSameFieldsWithAnError(libraryMode: Bool, expected: String) {
        let page = BatchRecord.failedPage(status: .timeout, message: "m", url: nil, title: nil, libraryMode: libraryMode)
        #expect(ReportRenderer.json(of: page).serialized == expected)
    }

    @Test func aTimedOutPageKeepsWhatTheScriptLoggedAndTheDialogsItOpened() throws {
        let context = try PageContext(url: "https://a.example/", title: "A")
        let partial = ScriptResult(context: context, value: nil, console: [ConsoleMessage(level: .log, message: "before")], error: nil,
                                   dialogs: [ScriptDialog(kind: "alert", message: "asked", accepted: true, answer: nil, openedByPage: false)])
        let page = BatchRecord.failedPage(status: .timeout, message: "m", url: nil, title: nil, libraryMode: false, partial: partial)
        let json = ReportRenderer.json(of: page)
        #expect(json["url"]?.stringValue == "https://a.example/")
        #expect(json["console"]?.arrayValue?.first?["message"]?.stringValue == "before")
        #expect(json["dialogs"]?.arrayValue?.first?["message"]?.stringValue == "asked")
        #expect(json["error"]?["name"]?.stringValue == "Timeout")
    }

    @Test func pageTextCannotBreakTheLineOrTheTerminal() throws {
        let hostile = "a\nb\r\u{1B}]0;x\u{07}\u{202E}\u{2028}"
        let result = ScriptResult(context: try PageContext(url: "https://a/", title: hostile), value: .string(hostile), console: [], error: nil)
        let line = BatchRecord(index: 0, input: hostile, status: .ok, page: .completed(.script(result, screenshot: nil)), httpStatus: nil,
                               startedAt: Date(), duration: 0, attempts: 1, engine: "chromium").line
        #expect(!line.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x202E || $0.value == 0x2028 })
        #expect(try JSONValue(parsing: line)["title"]?.stringValue == hostile)
    }

    @Test func everyFailureStatusHasItsOwnErrorName() {
        let failures = RecordStatus.allCases.filter { !$0.scriptRan }
        #expect(Set(failures.map(\.errorName)).count == failures.count)
        #expect(failures.allSatisfy { !$0.errorName.isEmpty })
    }
}

/// Waiting for sessions, and what the terminal shows.
struct BackoffAndProgressTests {
    @Test func backoffDoublesUpToItsMaximumWithJitterOfAtMostHalf() {
        let backoff = Backoff(initial: 0.25, maximum: 10)
        #expect([1, 2, 3, 4, 5, 6, 7, 50].map { backoff.delay(afterFailures: $0, unitRandom: 1) } == [0.25, 0.5, 1, 2, 4, 8, 10, 10])
        #expect(backoff.delay(afterFailures: 3, unitRandom: 0) == 0.5)
    }

    @Test func theProgressLineShowsCountsRateFailuresAndETA() {
        var progress = BatchProgress()
        progress.total = 500
        progress.alreadyDone = 12
        progress.done = 300
        progress.statusCounts = [.ok: 293, .timeout: 5, .httpError: 2]
        progress.pagesPerSecond = 41.25
        progress.openSessions = 4
        #expect(ProgressLine.render(progress) == "312/500 pages  41.3/s  7 failed  ETA 5s  4 sessions")
        progress.total = nil
        progress.pagesPerSecond = nil
        progress.waitingForSession = 2
        #expect(ProgressLine.render(progress) == "312 pages  -/s  7 failed  4 sessions  2 waiting for a session")
    }

    @Test(arguments: [(5.2, "5s"), (125.0, "2m05s"), (11_220.0, "3h07m")] as [(Double, String)])
    func durationsAreShort(seconds: Double, text: String) {
        #expect(ProgressLine.duration(seconds) == text)
    }

    @Test func theSummaryNamesEveryFailingStatus() {
        var progress = BatchProgress()
        progress.done = 500
        progress.elapsed = 12.5
        progress.statusCounts = [.ok: 493, .httpError: 4, .timeout: 2, .crashed: 1]
        progress.retried = 2
        progress.alreadyDone = 10
        #expect(BatchSummary(ending: .completed, progress: progress).line
                == "500 pages in 13s (40.0/s): 493 ok, 7 failed (4 http-error, 2 timeout, 1 crashed); 2 retried on a new session; 10 recorded before")
    }

    @Test func theRateCountsTheLastTenSeconds() {
        var window = RateWindow(span: 10)
        #expect(window.rate(at: 0.5, startedAt: 0) == nil)
        for time in stride(from: 0.0, to: 20, by: 0.5) { window.record(at: time) }
        #expect(window.rate(at: 20, startedAt: 0) == 2)
        #expect(window.rate(at: 4, startedAt: 2) != nil)
    }
}
