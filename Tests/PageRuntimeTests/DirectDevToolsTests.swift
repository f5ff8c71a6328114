import Foundation
import SystemSupport
import TestSupport
import Testing
@testable import PageRuntime

/// Runs on Chromium reach the page on PageScript's own DevTools connection, on the session's
/// current window, and dialogs the page opens never leave them waiting.
@Suite(.serialized)
struct DirectDevToolsTests {
    static func responses() -> [String: LoopbackResponse] {
        [
            "/": LoopbackResponse(html: "<!doctype html><title>Start</title><p>x</p>", headers: PageFixtures.strictPolicy),
            "/other": LoopbackResponse(html: "<!doctype html><title>Other</title><p>y</p>", headers: PageFixtures.strictPolicy),
            "/alerting": LoopbackResponse(html: "<!doctype html><title>Alerting</title><script src=\"/alert.js\"></script>", headers: PageFixtures.strictPolicy),
            "/alert.js": LoopbackResponse(body: "alert('loaded');", contentType: "text/javascript"),
            // Leaves for `/landed` while it parses, before its own load event.
            "/moving": LoopbackResponse(
                html: "<!doctype html><title>Moving</title><script src=\"/move.js\"></script><p>moving</p>", headers: PageFixtures.strictPolicy),
            "/move.js": LoopbackResponse(body: "location.replace('/landed');", contentType: "text/javascript"),
            "/landed": LoopbackResponse(html: "<!doctype html><title>Landed</title><p>z</p>", headers: PageFixtures.strictPolicy),
            "/empty": LoopbackResponse(body: "", contentType: "text/plain", status: 204),
        ]
    }

    @Test func runsFollowTheSessionsCurrentWindow() async throws {
        let server = try LoopbackServer(responses: Self.responses())
        defer { server.stop() }
        try await PageFixtures.onPage(.chromium, server) { page in
            let direct = try #require(page.direct)
            #expect(try await page.script("return document.title").value == "Start")
            let first = try await page.session.windowHandle()
            #expect(await direct.attachedWindowHandles == [first])
            let before = direct.evaluations
            #expect(try await page.script("return document.title").value == "Start")
            #expect(direct.evaluations > before, "once attached, runs go on PageScript's own connection")

            let second = try await page.session.newWindow()
            try await page.session.switchToWindow(second)
            #expect(try await page.open(server.url("/other")).title == "Other")
            #expect(await direct.attachedWindowHandles == [first, second])
            let onSecond = direct.evaluations
            #expect(try await page.script("return document.title").value == "Other")
            #expect(direct.evaluations > onSecond)

            try await page.session.switchToWindow(first)
            #expect(try await page.script("return document.title").value == "Start")
        }
    }

    @Test func aDialogOpenBeforeTheFirstCallIsAnswered() async throws {
        let server = try LoopbackServer(responses: Self.responses())
        defer { server.stop() }
        // The first page of the session alerts as it loads: the dialog is open before PageScript
        // attaches, so no event announces it, and `Page.enable` waits for it.
        try await PageFixtures.onPage(.chromium, server, path: "/alerting") { page in
            let direct = try #require(page.direct)
            let result = try await page.script("return document.title")
            #expect(result.value == "Alerting")
            #expect(result.dialogs.map(\.message) == ["loaded"])
            #expect(await direct.attachedWindowHandles.count == 1)
            let before = direct.evaluations
            #expect(try await page.script("return 2").value == 2)
            #expect(direct.evaluations > before)
        }
    }

    /// `body` on a Chromium page whose window is attached on PageScript's own connection.
    private func onAttachedPage(bypassingCSP: Bool = false,
                                _ body: @escaping @Sendable (PageSession, DirectDevTools, LoopbackServer) async throws -> Void) async throws {
        let server = try LoopbackServer(responses: Self.responses())
        defer { server.stop() }
        try await PageFixtures.onPage(.chromium, server, scriptTimeout: 8, bypassesContentSecurityPolicy: bypassingCSP) { page in
            let direct = try #require(page.direct)
            _ = try await page.script("return 0")
            #expect(await direct.attachedWindowHandles.count == 1)
            try await body(page, direct, server)
        }
    }

    @Test func navigationsOnceAttachedGoOnPageScriptsOwnConnection() async throws {
        try await onAttachedPage(bypassingCSP: true) { page, direct, server in
            #expect(try await page.open(server.url("/other")).title == "Other")
            #expect(direct.navigations == 1, "the window is attached: the navigation does not go through the driver")
            #expect(try await page.script("return document.title").value == "Other")
            // The page's policy forbids inline styles; the bypass the driver's session set when
            // asked to (--bypass-csp) still holds for a document this connection navigated to.
            let styled = try await page.script("""
                var style = document.createElement("style");
                style.textContent = "p { color: rgb(1, 2, 3); }";
                document.head.appendChild(style);
                return getComputedStyle(document.querySelector("p")).color;
                """)
            #expect(styled.value == "rgb(1, 2, 3)")

            // A script that leaves while the page parses: the document it went to is the one waited for.
            let landed = try await page.open(server.url("/moving"), loadTimeout: 8)
            #expect(landed.title == "Landed")
            #expect(landed.url == server.url("/landed"))
            #expect(try await page.script("return document.readyState").value == "complete")

            // Within the document: no new document, no load event to wait for.
            let fragment = try await page.open(server.url("/landed#part"))
            #expect(fragment.url == server.url("/landed#part"))
            #expect(fragment.title == "Landed")
            #expect(direct.navigations == 3)

            // A page that alerts as it loads: the run answers the dialog and reports it.
            let alerted = try await page.openAndRun(server.url("/alerting"), script: "document.title", timeout: 8)
            guard case let .ran(result, _) = alerted else { Issue.record("\(alerted)"); return }
            #expect(result.value == "Alerting", "\(result.json.serialized)")
            #expect(result.dialogs.map(\.message) == ["loaded"])
            #expect(direct.navigations == 4)

            // Nothing to show (a `204`): the window stays where it was, and no script may run
            // there under the new address.
            await expectLoadFailure(opening: server.url("/empty"), on: page, reason: LoadFailure.noNewDocument + " (net::ERR_ABORTED)")
            #expect(direct.navigations == 5)

            // Addresses without a server: a blank page and a data URL load like any other.
            #expect(try await page.open("about:blank", loadTimeout: 8).url == "about:blank")
            let data = "data:text/html,%3Ctitle%3EData%3C/title%3E"
            #expect(try await page.open(data, loadTimeout: 8).title == "Data")
            #expect(direct.navigations == 7)
        }
    }

    /// Expects opening `url` on `page` to fail to load, for `reason`.
    private func expectLoadFailure(opening url: String, on page: PageSession, reason: String,
                                   sourceLocation: SourceLocation = #_sourceLocation) async {
        await #expect(sourceLocation: sourceLocation) {
            _ = try await page.open(url, loadTimeout: 8)
        } throws: { error in
            guard case let .navigationFailed(_, given) = error as? InjectionError else { return false }
            return given == reason
        }
    }

    @Test func aNavigationOnTheOwnConnectionFailsAsTheDriversDoes() async throws {
        try await onAttachedPage { page, direct, _ in
            let refusing = try RefusingPort()
            defer { refusing.stop() }
            await expectLoadFailure(opening: refusing.url("/"), on: page, reason: "connection refused (net::ERR_CONNECTION_REFUSED)")
            #expect(direct.navigations == 1)

            // A server that never answers: the load's time runs out on PageScript's side.
            let silent = try SilentListener()
            defer { silent.stop() }
            await #expect {
                _ = try await page.open("http://127.0.0.1:\(silent.port)/", loadTimeout: 1)
            } throws: { error in
                guard case let .loadTimedOut(_, seconds) = error as? InjectionError else { return false }
                return seconds == 1
            }
            #expect(direct.navigations == 2)
        }
    }

    @Test func aDialogThePageOpensBetweenRunsIsAnswered() async throws {
        try await onAttachedPage { page, _, _ in
            _ = try await page.script("setTimeout(function () { window.alert('while idle'); }, 30); return 1")
            try await Task.sleep(nanoseconds: 300_000_000)
            let next = try await page.script("return 2")
            #expect(next.value == 2)
            #expect(next.dialogs == [ScriptDialog(kind: "dialog", message: "while idle", accepted: false, openedByPage: true)])
            #expect(try await page.script("return 3").value == 3)
        }
    }

    @Test func aDialogThatOpensDuringADirectRunIsAnswered() async throws {
        try await onAttachedPage { page, direct, _ in
            let before = direct.evaluations
            let run = try await page.script("""
                setTimeout(function () { window.alert("from a timer"); }, 20);
                return new Promise(function (resolve) { setTimeout(function () { resolve("after"); }, 400); });
                """)
            #expect(direct.evaluations > before)
            #expect(run.value == "after")
            #expect(run.dialogs == [ScriptDialog(kind: "dialog", message: "from a timer", accepted: false, openedByPage: true)])
        }
    }

    @Test(arguments: [("127.0.0.1", true), ("127.1.2.3", true), ("localhost", true), ("::1", true), ("[::1]", true),
                      ("grid.example.com", false), ("10.0.0.7", false), ("localhost.example.com", false), ("127.0.0.1.example.com", false),
                      ("::ffff:127.0.0.1", true), (nil, false)] as [(String?, Bool)])
    func onlyABrowserOnThisMachineIsReachedDirectly(host: String?, loopback: Bool) {
        #expect(DirectDevTools.isLoopback(host) == loopback)
    }
}
