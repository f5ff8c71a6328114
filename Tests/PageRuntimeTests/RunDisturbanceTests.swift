import Engines
import Foundation
import ScriptConsole
import SystemSupport
import TestSupport
import Testing
@testable import PageRuntime

/// Dialogs, navigations and timeouts during a run: the outcome survives, or the run says what
/// happened, on both engines.
@Suite(.serialized)
struct RunDisturbanceTests {
    static func responses() -> [String: LoopbackResponse] {
        [
            "/": LoopbackResponse(html: "<!doctype html><title>Start</title><p>x</p>", headers: PageFixtures.strictPolicy),
            "/other": LoopbackResponse(html: "<!doctype html><title>Other</title><p>y</p>", headers: PageFixtures.strictPolicy),
            "/alerting": LoopbackResponse(html: "<!doctype html><title>Alerting</title><script src=\"/alert.js\"></script>", headers: PageFixtures.strictPolicy),
            "/alert.js": LoopbackResponse(body: "alert('loaded');", contentType: "text/javascript"),
        ]
    }

    @Test(arguments: PageFixtures.everyEngine)
    func dialogsAreAnsweredAndReported(engine: Engine) async throws {
        let server = try LoopbackServer(responses: Self.responses())
        defer { server.stop() }
        try await PageFixtures.onPage(engine, server) { page in
            let own = try await page.script("alert('hello'); return [confirm('sure?'), prompt('name?', 'Ada')]")
            #expect(own.value == [false, .null])
            #expect(own.dialogs == [
                ScriptDialog(kind: "alert", message: "hello"),
                ScriptDialog(kind: "confirm", message: "sure?", accepted: false),
                ScriptDialog(kind: "prompt", message: "name?", accepted: false, answer: nil),
            ])

            let accepting = PageSession(session: page.session, scriptTimeout: 10, dialogs: .accept)
            let accepted = try await accepting.script("return [confirm('sure?'), prompt('name?', 'Ada')]")
            #expect(accepted.value == [true, "Ada"])

            let byPage = try await page.script("""
                setTimeout(function () { window.alert("from a timer"); }, 20);
                return new Promise(function (resolve) { setTimeout(function () { resolve("after"); }, 400); });
                """)
            #expect(byPage.value == "after")
            #expect(byPage.dialogs == [ScriptDialog(kind: "dialog", message: "from a timer", accepted: false, openedByPage: true)])

            let blocking = try await page.script("window.confirm('blocking'); return 5")
            #expect(blocking.value == 5)
            #expect(blocking.dialogs.map(\.message) == ["blocking"])

            let loading = try await page.open(server.url("/alerting"))
            #expect(loading.title == "Alerting")
            let afterLoad = try await page.script("return 1")
            #expect(afterLoad.dialogs.map(\.message) == ["loaded"], "a dialog the page opened while loading is reported with the next result")
        }
    }

    /// A dialog the page opens while nothing runs: the driver refuses the next call without
    /// running it (unexpected alert open); the dialog is answered and the call sent again.
    @Test(arguments: PageFixtures.engines)
    func aDialogOpenedWhileNothingRunsDoesNotLoseTheNextRun(engine: Engine) async throws {
        let server = try LoopbackServer(responses: Self.responses())
        defer { server.stop() }
        try await PageFixtures.onPage(engine, server, scriptTimeout: 8) { page in
            _ = try await page.script("setTimeout(function () { window.alert('while idle'); }, 30); return 1")
            try await Task.sleep(nanoseconds: 300_000_000)
            let next = try await page.script("window.ranAfterTheDialog = (window.ranAfterTheDialog || 0) + 1; return 2")
            #expect(next.value == 2)
            #expect(next.dialogs == [ScriptDialog(kind: "dialog", message: "while idle", accepted: false, openedByPage: true)])
            #expect(try await page.script("return window.ranAfterTheDialog").value == 1, "the run ran once")
        }
    }

    @Test(arguments: PageFixtures.everyEngine)
    func aPageThatNavigatesAwayIsReported(engine: Engine) async throws {
        let server = try LoopbackServer(responses: Self.responses())
        defer { server.stop() }
        try await PageFixtures.onPage(engine, server) { page in
            await #expect(throws: InjectionError.navigatedAway(to: server.url("/other"))) {
                _ = try await page.script("location.href = '/other'; return new Promise(function () {})")
            }
            #expect(try await page.script("return document.title").value == "Other", "the next run works on the new page")
            await #expect(throws: InjectionError.navigatedAway(to: server.url("/other"))) {
                _ = try await page.script("location.reload(); return new Promise(function () {})")
            }
            let quick = try await page.script("location.href = '/'; return 'left'")
            #expect(quick.value == "left", "a script that finishes before the page leaves keeps its value")
        }
    }

    @Test(arguments: PageFixtures.engines)
    func aTimeoutKeepsTheConsoleLinesSoFar(engine: Engine) async throws {
        let server = try LoopbackServer(responses: Self.responses())
        defer { server.stop() }
        try await PageFixtures.onPage(engine, server) { page in
            do {
                _ = try await page.script("console.log('before'); alert('asked'); return new Promise(function () {})", timeout: 2)
                Issue.record("the run did not time out")
            } catch let error as InjectionError {
                guard case let .timedOut(seconds, partial) = error else {
                    Issue.record("unexpected \(error)")
                    return
                }
                #expect(seconds == 2)
                #expect(partial?.console == [ConsoleMessage(level: .log, message: "before")])
                #expect(partial?.dialogs.map(\.message) == ["asked"])
                #expect(partial?.error?.name == "Timeout")
            }
            #expect(try await page.script("return 'still usable'").value == "still usable")
        }
    }
}
