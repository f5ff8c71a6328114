import Engines
import Foundation
import SystemSupport
import TestSupport
import Testing
@testable import PageRuntime

/// A page that does not load is a navigation failure with the browser's reason, on both engines;
/// nothing runs on the error page.
@Suite(.serialized)
struct LoadFailureTests {
    @Test(arguments: PageFixtures.everyEngine)
    func pagesThatDoNotLoadAreReportedWithTheReason(engine: Engine) async throws {
        let server = try LoopbackServer(pages: ["/": "<title>Fine</title>"])
        defer { server.stop() }
        let closedPort = try RefusingPort()
        defer { closedPort.stop() }
        let refused = closedPort.url("/")
        let failures: [(url: String, reason: [String])] = [
            (refused, ["refused"]),
            ("file:///nonexistent/pagescript-missing.html", ["no such file", "No such file"]),
            // A loaded resolver may answer "resolution failed" instead of "not resolved".
            ("http://nonexistent.invalid/", ["resolv", "resolution"]),
            ("https://127.0.0.1:\(server.port)/", ["TLS"]),
        ]
        try await PageFixtures.onPage(engine, server) { page in
            for failure in failures {
                do {
                    _ = try await page.open(failure.url)
                    Issue.record("\(failure.url) loaded")
                } catch let error as InjectionError {
                    guard case let .navigationFailed(url, reason) = error else {
                        Issue.record("\(failure.url): \(error)")
                        continue
                    }
                    #expect(url == failure.url)
                    #expect(failure.reason.contains { reason.lowercased().contains($0.lowercased()) }, "\(failure.url): \(reason)")
                }
            }
            #expect(try await page.open(server.url("/")).title == "Fine", "the session goes on")
        }
    }

    /// On Firefox, an address that shows no page (a `204`, a download) fails at once with the
    /// reason Chromium gives, as WebDriver BiDi's navigation reports it, not at the end of the
    /// load's time as geckodriver's Navigate To did; the browser stays on the page it had, and a
    /// page, a server's redirect and an error status load as before.
    @Test
    func anAddressThatShowsNoPageFailsAtOnceOnFirefox() async throws {
        let fileName = "pagescript-test-\(UUID().uuidString).bin"
        let server = try LoopbackServer(responses: [
            "/": LoopbackResponse(html: "<title>Fine</title>"),
            "/landed": LoopbackResponse(html: "<title>Landed</title>"),
            "/moved": LoopbackResponse(redirectTo: "/landed"),
            "/alerts-later": LoopbackResponse(html: "<title>Alerts</title><script>addEventListener('load', () => setTimeout(() => alert('later'), 50))</script>"),
            "/empty": LoopbackResponse(body: "", contentType: "text/plain", status: 204),
            "/download": LoopbackResponse(body: "saved", contentType: "application/octet-stream",
                                          headers: ["Content-Disposition": "attachment; filename=\"\(fileName)\""]),
        ])
        defer { server.stop() }
        // A hidden Firefox saves the download in its throwaway folder, never in the user's own.
        let folder = NSHomeDirectory() + "/Downloads/"
        defer {
            let saved = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            let strays = saved.filter { $0.hasPrefix(fileName.dropLast(4)) }
            #expect(strays.isEmpty, "the download went to the user's downloads folder: \(strays)")
            for name in strays { try? FileManager.default.removeItem(atPath: folder + name) }
        }
        try await PageFixtures.onPage(.firefox, server) { page in
            for path in ["/empty", "/download", "/empty"] {
                let started = Date()
                await #expect {
                    _ = try await page.open(server.url(path), loadTimeout: 30)
                } throws: { error in
                    guard case let .navigationFailed(url, reason) = error as? InjectionError else { return false }
                    return url == server.url(path) && reason.hasPrefix(LoadFailure.noNewDocument)
                }
                let seconds = Date().timeIntervalSince(started)
                #expect(seconds < 10, "\(path) failed after \(seconds) s, well within the load's time")
                #expect(try await page.run(script: "document.title").value == "Fine", "the browser stayed on the page it had")
            }
            #expect(server.requestedPaths.filter { $0 == "/download" }.count == 1, "a download is not asked for again")
            let moved = try await page.open(server.url("/moved"), loadTimeout: 30)
            #expect(moved.title == "Landed" && moved.url == server.url("/landed") && moved.httpStatus == 200)
            let missing = try await page.open(server.url("/missing"), loadTimeout: 30)
            #expect(missing.httpStatus == 404 && missing.title == "Not found")
            #expect(try await page.open(server.url("/"), loadTimeout: 30).title == "Fine")
            // A dialog the page opened after its load is still open when the next navigation
            // starts: the navigation goes on, well within its time.
            #expect(try await page.open(server.url("/alerts-later"), loadTimeout: 30).title == "Alerts")
            try await Task.sleep(for: .milliseconds(500))
            let started = Date()
            #expect(try await page.open(server.url("/landed"), loadTimeout: 30).title == "Landed")
            #expect(Date().timeIntervalSince(started) < 10)
        }
    }

    @Test(arguments: PageFixtures.everyEngine)
    func aServerThatNeverAnswersTimesOutTheLoad(engine: Engine) async throws {
        let server = try LoopbackServer(pages: ["/": "<title>Fine</title>"])
        defer { server.stop() }
        let silent = try SilentListener()
        defer { silent.stop() }
        try await PageFixtures.onPage(engine, server) { page in
            try await page.session.setTimeouts(pageLoad: 2)
            await #expect(throws: InjectionError.loadTimedOut(url: "http://127.0.0.1:\(silent.port)/", seconds: 2)) {
                _ = try await page.open("http://127.0.0.1:\(silent.port)/", loadTimeout: 2)
            }
        }
    }

    /// A page whose load does not end in time (an image from a server that never answers) is
    /// left as a browser's Stop button leaves it, so the session goes on: the page, parsed, is
    /// opened with its load recorded as unfinished (its scripts would run, as a manager's do),
    /// and the next page opens and scripts run, on both engines, whether the driver's own
    /// page-load limit is the load's or longer (then the driver is still waiting when PageScript
    /// gives up). Without that, WebKit's driver made every later command wait for the rest of
    /// the load and time out too. A page that replaced `window.stop` is left for `about:blank`
    /// instead on WebKit, where it then did not load.
    @Test(arguments: PageFixtures.everyEngine)
    func aPageWhoseLoadTimesOutIsStoppedAndTheSessionGoesOn(engine: Engine) async throws {
        let silent = try SilentListener()
        defer { silent.stop() }
        let image = "<img src=\"http://127.0.0.1:\(silent.port)/never.png\">"
        let server = try LoopbackServer(pages: [
            "/": "<title>Fine</title>",
            "/stuck": "<title>Stuck</title>\(image)",
            "/stubborn": "<title>Stubborn</title><script>Window.prototype.stop = window.stop = function () {};</script>\(image)",
        ])
        defer { server.stop() }
        try await PageFixtures.onPage(engine, server) { page in
            // geckodriver answers nothing while it waits for a load (PageScript stops Firefox's
            // through BiDi): PageScript's own Firefox sessions have the load's limit as the driver's.
            let limits = engine == .firefox ? [("/stuck", 2.0), ("/stubborn", 2)] : [("/stuck", 60.0), ("/stuck", 2), ("/stubborn", 2)]
            for (path, driverLimit) in limits {
                try await page.session.setTimeouts(pageLoad: driverLimit)
                if path == "/stubborn", engine == .webkit {
                    // Not stopped, so left for about:blank: nothing of it can run.
                    await #expect(throws: InjectionError.loadTimedOut(url: server.url(path), seconds: 2)) {
                        _ = try await page.open(server.url(path), loadTimeout: 2)
                    }
                } else {
                    let stuck = try await page.open(server.url(path), loadTimeout: 2)
                    #expect(stuck.url == server.url(path) && page.lastLoadUnfinished, "\(path), driver limit \(driverLimit) s")
                    if path == "/stuck" {
                        // Stopped: the image is no longer waited for.
                        #expect(try await page.run(script: "document.readyState").value == "complete", "\(path), driver limit \(driverLimit) s")
                    }
                }
                #expect(try await page.open(server.url("/"), loadTimeout: 10).title == "Fine", "after \(path), driver limit \(driverLimit) s")
                #expect(try await page.run(script: "document.title").value == "Fine")
            }
        }
    }
}
