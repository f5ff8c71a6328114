import Engines
import Foundation
import SystemSupport
import TestSupport
import Testing
@testable import PageRuntime

/// `PageSession.openAndRun` (the batch's two-round-trip visit: navigate, then install and run in
/// one call) gives what `open` then `run` give, on both engines: the value and console, an error's
/// line in the user's script, a syntax error, dialogs the page opens, error pages and HTTP errors.
/// On Chromium the browser installs the runtime as each document starts, and the call carries
/// the run alone.
@Suite(.serialized)
struct OpenAndRunTests {
    @Test(arguments: PageFixtures.engines)
    func aVisitReportsWhatOpenThenRunReports(engine: Engine) async throws {
        let server = try LoopbackServer(responses: [
            "/": LoopbackResponse(html: "<title>Start</title>"),
            "/shop": LoopbackResponse(html: "<title>Shop</title><p id=price>12</p>"),
            "/alerting": LoopbackResponse(html: "<title>Alerting</title><script>alert('welcome')</script>"),
        ])
        defer { server.stop() }
        try await PageFixtures.onPage(engine, server) { page in
            let shop = try ran(await page.openAndRun(server.url("/shop"), script: "console.log('reading');\n+document.getElementById('price').textContent * 2", timeout: 10))
            #expect(shop.result.value == .integer(24))
            #expect(shop.result.context.title == "Shop")
            #expect(shop.result.console.map(\.message) == ["reading"])
            #expect(shop.httpStatus == 200, "the document's status, on both engines")
            #expect(page.state.read(\.entry) != nil, "the runtime installed by the visit serves later runs")
            let preinstalled = if case .installed = page.state.read(\.preinstallation) { true } else { false }
            #expect(preinstalled == (engine == .chromium), "Chromium installs the runtime as each document starts")
            #expect(try await page.run(script: "document.title").value == .string("Shop"))

            let thrown = try ran(await page.openAndRun(server.url("/shop"), script: "var a = 1;\n\nthrow new Error('boom at ' + a)", timeout: 10))
            #expect(thrown.result.error?.message == "boom at 1")
            #expect(thrown.result.error?.line == 3, "the line counts the user's script, not the installation before it")

            let broken = try ran(await page.openAndRun(server.url("/"), script: "var x = ;", timeout: 10))
            #expect(broken.result.error?.name == "SyntaxError")
            #expect(broken.result.context.title == "Start")

            let alerted = try ran(await page.openAndRun(server.url("/alerting"), script: "document.title", timeout: 10))
            #expect(alerted.result.value == .string("Alerting"))
        }
    }

    /// An address that shows no page (a 204) leaves the browser on the page it had, whichever
    /// way the navigation went (the driver's first, then on Chromium the direct connection): the
    /// visit fails, and its script does not run on that page under the new address. A fragment
    /// keeps the document too, but lands where it was asked to, and runs.
    @Test(arguments: PageFixtures.engines)
    func anAddressThatShowsNoPageIsNotRunOn(engine: Engine) async throws {
        let server = try LoopbackServer(responses: [
            "/": LoopbackResponse(html: "<title>Start</title>"),
            "/shop": LoopbackResponse(html: "<title>Shop</title><p>12</p>"),
            "/empty": LoopbackResponse(body: "", contentType: "text/plain", status: 204),
        ])
        defer { server.stop() }
        try await PageFixtures.onPage(engine, server) { page in
            let marker = "window.pagescriptVisits = (window.pagescriptVisits || 0) + 1; document.title"
            #expect(try ran(await page.openAndRun(server.url("/shop"), script: marker, timeout: 10)).result.value == .string("Shop"))
            for _ in 0..<2 {
                await #expect {
                    _ = try await page.openAndRun(server.url("/empty"), script: marker, timeout: 10)
                } throws: { error in
                    guard case let .navigationFailed(url, reason) = error as? InjectionError else { return false }
                    return url == server.url("/empty") && reason.hasPrefix(LoadFailure.noNewDocument)
                }
            }
            #expect(try await page.run(script: "window.pagescriptVisits").value == .integer(1), "the script ran on /shop alone")
            let fragment = try ran(await page.openAndRun(server.url("/shop#part"), script: marker, timeout: 10))
            #expect(fragment.result.value == .string("Shop"))
            #expect(fragment.result.context.url == server.url("/shop#part"))
        }
    }

    /// The same for a page only opened (``PageSession/open(_:loadTimeout:)``, as `--library`
    /// batches and `run` do) and for a visit whose script takes the slow way (one PageScript
    /// cannot prepare, whose syntax error the page then reports): the 204 fails instead of
    /// showing the previous page under the new address, and the next page opens as usual.
    @Test(arguments: PageFixtures.engines)
    func openingAnAddressThatShowsNoPageFails(engine: Engine) async throws {
        let server = try LoopbackServer(responses: [
            "/": LoopbackResponse(html: "<title>Start</title>"),
            "/shop": LoopbackResponse(html: "<title>Shop</title>"),
            "/cart": LoopbackResponse(html: "<title>Cart</title>"),
            "/empty": LoopbackResponse(body: "", contentType: "text/plain", status: 204),
        ])
        defer { server.stop() }
        try await PageFixtures.onPage(engine, server) { page in
            let shop = try await page.open(server.url("/shop"))
            #expect(shop.title == "Shop")
            await #expect {
                _ = try await page.open(server.url("/empty"))
            } throws: { error in
                guard case let .navigationFailed(url, reason) = error as? InjectionError else { return false }
                return url == server.url("/empty") && reason.hasPrefix(LoadFailure.noNewDocument)
            }
            let cart = try await page.open(server.url("/cart"))
            #expect(cart.title == "Cart")
            let broken = "window.pagescriptProbed = true; document.title +"
            await #expect {
                _ = try await page.openAndRun(server.url("/empty"), script: broken, timeout: 10)
            } throws: { error in
                guard case let .navigationFailed(url, reason) = error as? InjectionError else { return false }
                return url == server.url("/empty") && reason.hasPrefix(LoadFailure.noNewDocument)
            }
            let shopAgain = try ran(await page.openAndRun(server.url("/shop"), script: broken, timeout: 10))
            #expect(shopAgain.result.context.title == "Shop")
            #expect(shopAgain.result.error != nil)
        }
    }

    @Test(arguments: PageFixtures.engines)
    func errorPagesAndErrorStatusesAreNotRunOn(engine: Engine) async throws {
        let server = try LoopbackServer(responses: ["/": LoopbackResponse(html: "<title>Fine</title>")])
        defer { server.stop() }
        let closedPort = try RefusingPort()
        defer { closedPort.stop() }
        let refused = closedPort.url("/")
        try await PageFixtures.onPage(engine, server) { page in
            let marker = "window.pagescriptVisited = true; document.title"
            await #expect {
                _ = try await page.openAndRun(refused, script: marker, timeout: 10)
            } throws: { error in
                guard case let .navigationFailed(url, reason) = error as? InjectionError else { return false }
                return url == refused && reason.contains("refused")
            }
            let missing = try await page.openAndRun(server.url("/missing"), script: marker, timeout: 10, skippingHTTPErrors: true)
            switch missing {
            case let .skipped(context, status):
                #expect(status == 404)
                #expect(context.url == server.url("/missing"))
                #expect(try await page.run(script: "window.pagescriptVisited === true").value == .bool(false), "the script did not run")
            default:
                Issue.record("\(engine): \(missing)")
            }
            #expect(try ran(await page.openAndRun(server.url("/"), script: "document.title", timeout: 10)).result.value == .string("Fine"))
        }
    }

    /// A page still loading when the visit's call reaches it (on Chromium, after a session's first
    /// page, the call goes as soon as the new document starts, while its image still loads): the
    /// script runs once the load event's handlers have run, as after `open`.
    @Test(arguments: PageFixtures.engines)
    func theScriptRunsOnceTheLoadEventsHandlersHaveRun(engine: Engine) async throws {
        let server = try LoopbackServer(responses: [
            "/": LoopbackResponse(html: "<title>Start</title>"),
            "/slow": LoopbackResponse(html: """
                <title>Slow</title><img src="/slow.png">
                <script>window.addEventListener("load", () => { window.handled = true; });</script>
                """),
            "/slow.png": LoopbackResponse(body: "", contentType: "image/png", delay: 0.5),
        ])
        defer { server.stop() }
        try await PageFixtures.onPage(engine, server) { page in
            #expect(try ran(await page.openAndRun(server.url("/"), script: "document.title", timeout: 10)).result.value == .string("Start"))
            let slow = try ran(await page.openAndRun(server.url("/slow"), script: "[document.readyState, window.handled === true]", timeout: 10))
            #expect(slow.result.value == ["complete", true])
            #expect(slow.result.context.title == "Slow")
        }
    }

    /// The load and the script share the visit's time: a page whose image holds its load for a
    /// second leaves a 3-second visit's script about two, so a script that needs 2.5 times out
    /// (it would finish if the load's time were not counted). A page that does not load within
    /// the visit's time runs on the document as it is when it was parsed by then, fails as a load
    /// that timed out when it was not, and on Chromium (where the run waits in
    /// the page for the load) the next page opens as usual.
    @Test(arguments: PageFixtures.engines)
    func theLoadAndTheScriptShareTheVisitsTime(engine: Engine) async throws {
        let silent = try SilentListener()
        defer { silent.stop() }
        let server = try LoopbackServer(responses: [
            "/": LoopbackResponse(html: "<title>Start</title>"),
            "/slow": LoopbackResponse(html: "<title>Slow</title><img src=\"/slow.png\">"),
            "/slow.png": LoopbackResponse(body: "", contentType: "image/png", delay: 1),
            "/stuck": LoopbackResponse(html: "<title>Stuck</title><img src=\"http://127.0.0.1:\(silent.port)/never.png\">"),
            "/blocked": LoopbackResponse(html: "<title>Blocked</title><script src=\"http://127.0.0.1:\(silent.port)/never.js\"></script>"),
        ])
        defer { server.stop() }
        try await PageFixtures.onPage(engine, server) { page in
            let start = try ran(await page.openAndRun(server.url("/"), script: "document.title", timeout: 10))
            #expect(start.result.value == .string("Start"))
            let waiting = "await new Promise(resolve => setTimeout(resolve, 2500)); 'late'"
            await #expect {
                _ = try await page.openAndRun(server.url("/slow"), script: waiting, timeout: 3)
            } throws: { error in
                guard case .timedOut = error as? InjectionError else { return false }
                return true
            }
            // A page parsed in time gets its script although its image never comes; one never
            // parsed (its head's script never comes) is a load that timed out.
            let stuck = try ran(await page.openAndRun(server.url("/stuck"), script: "document.title", timeout: 2))
            #expect(stuck.result.value == .string("Stuck"))
            #expect(stuck.result.context.unfinishedLoad == 2)
            await #expect {
                _ = try await page.openAndRun(server.url("/blocked"), script: "document.title", timeout: 2)
            } throws: { error in
                guard case let .loadTimedOut(url, _) = error as? InjectionError else { return false }
                return url == server.url("/blocked")
            }
            // On Chromium the page goes on (WebKit's driver keeps waiting for the stuck load).
            if engine == .chromium {
                #expect(try ran(await page.openAndRun(server.url("/"), script: "document.title", timeout: 10)).result.value == .string("Start"))
            }
        }
    }

    private func ran(_ visit: PageSession.LoadedRun) throws -> (result: ScriptResult, httpStatus: Int?) {
        guard case let .ran(result, httpStatus) = visit else {
            throw InjectionError.pageInterfered(reason: "the visit was skipped: \(visit)")
        }
        return (result, httpStatus)
    }
}
