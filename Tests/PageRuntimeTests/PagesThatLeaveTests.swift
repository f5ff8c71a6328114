import Engines
import Foundation
import SystemSupport
import TestSupport
import Testing
@testable import PageRuntime

/// A batch's visits (`PageSession.openAndRun`) on a list that alternates a page which sends the
/// browser elsewhere a few milliseconds after its load with an ordinary page: every result comes
/// from the document of the address it was asked for (or where that page's own script led, under
/// that address), or says that the page left and for where; the ordinary page always runs, and
/// never with the values of the page the one before it went to. A server's redirect is not a page leaving: its result names
/// the address it ended at.
@Suite(.serialized)
struct PagesThatLeaveTests {
    /// Milliseconds after its load at which `/away-N` sets `location.href`.
    static let delays = [0, 1, 3, 5, 8, 12, 20, 30]

    static func site() throws -> LoopbackServer {
        var responses: [String: LoopbackResponse] = [
            "/": LoopbackResponse(html: "<title>Start</title>"),
            "/plain": LoopbackResponse(html: "<title>Plain</title><p id=value>plain</p>"),
            "/other": LoopbackResponse(html: "<title>Other</title><p id=value>other</p>"),
            "/moved": LoopbackResponse(redirectTo: "/plain"),
        ]
        // The other page answers at once, or after 150 ms, so that its navigation is still under
        // way when the next visit's begins.
        responses["/slow-other"] = LoopbackResponse(body: "<title>Other</title><p id=value>other</p>", contentType: "text/html; charset=utf-8", delay: 0.15)
        for delay in delays {
            for target in ["other", "slow-other"] {
                // One that sends no referrer, so that the document it leads to cannot tell where
                // the browser came from.
                let referrer = target == "slow-other" && delay.isMultiple(of: 2) ? "<meta name=referrer content=no-referrer>" : ""
                responses["/away-\(delay)-\(target)"] = LoopbackResponse(html: """
                    <title>Away</title>\(referrer)<p id=value>away</p>
                    <script>addEventListener("load", function () { setTimeout(function () { location.href = "/\(target)"; }, \(delay)); });</script>
                    """)
            }
        }
        return try LoopbackServer(responses: responses)
    }

    static let script = "document.getElementById('value').textContent + ' ' + location.pathname"

    @Test(arguments: PageFixtures.everyEngine)
    func everyResultComesFromTheDocumentItNames(engine: Engine) async throws {
        let server = try Self.site()
        defer { server.stop() }
        try await PageFixtures.onPage(engine, server) { page in
            var wrong: [String] = []
            var left = 0
            for round in 0..<5 {
                for delay in Self.delays {
                    let target = round.isMultiple(of: 2) ? "other" : "slow-other"
                    let away = server.url("/away-\(delay)-\(target)")
                    do {
                        let visit = try await page.openAndRun(away, script: Self.script, timeout: 10)
                        guard case let .ran(result, _) = visit else {
                            wrong.append("\(round) away-\(delay): skipped")
                            continue
                        }
                        // The page's own script may have led the browser on before the run:
                        // then the values are that document's, under its address.
                        let mine = result.value == .string("away /away-\(delay)-\(target)") && result.context.url == away
                        let ledOn = result.value == .string("other /\(target)") && result.context.url == server.url("/\(target)")
                        if !mine && !ledOn {
                            wrong.append("\(round) away-\(delay): \(String(describing: result.value)) at \(result.context.url)")
                        }
                    } catch let InjectionError.navigatedAway(to, _) {
                        left += 1
                        if to != server.url("/\(target)") { wrong.append("\(round) away-\(delay): left for \(to)") }
                    } catch let InjectionError.pageChanged(_, to) {
                        // The page's own script led the browser on before the run, and the
                        // browser cannot tell that from another page's doing: nothing ran, and
                        // the visit says where the browser went.
                        left += 1
                        if to != server.url("/\(target)") { wrong.append("\(round) away-\(delay): moved to \(to)") }
                    } catch {
                        wrong.append("\(round) away-\(delay): \(error)")
                    }
                    do {
                        let visit = try await page.openAndRun(server.url("/plain"), script: Self.script, timeout: 10)
                        guard case let .ran(result, _) = visit else {
                            wrong.append("\(round) plain after away-\(delay): skipped")
                            continue
                        }
                        if result.value != .string("plain /plain") || result.context.url != server.url("/plain") {
                            wrong.append("\(round) plain after away-\(delay): \(String(describing: result.value)) at \(result.context.url)")
                        }
                    } catch {
                        wrong.append("\(round) plain after away-\(delay): \(error)")
                    }
                }
            }
            #expect(wrong.isEmpty, "\(engine): \(wrong.count) wrong of \(5 * Self.delays.count * 2) visits (\(left) left): \(wrong)")
        }
    }

    /// The page being left sends the browser elsewhere, without a referrer, while the next
    /// page's server is still answering: its navigation replaces PageScript's, and the document
    /// it makes looks like a server's redirect from inside the page. The browser's own record
    /// (DevTools' loader on Chromium, the Web Inspector's on WebKit, WebDriver BiDi's navigation
    /// events on Firefox) says whose it is: the visit goes again, and its result is the page it
    /// names.
    @Test(arguments: PageFixtures.everyEngine)
    func aPageTheLastOneSentTheBrowserToIsNotTakenForARedirect(engine: Engine) async throws {
        let server = try LoopbackServer(responses: [
            "/": LoopbackResponse(html: "<title>Start</title>"),
            "/leaving": LoopbackResponse(html: """
                <title>Leaving</title><meta name=referrer content=no-referrer><p id=value>leaving</p>
                <script>addEventListener("load", function () { setTimeout(function () { location.href = "/elsewhere"; }, 300); });</script>
                """),
            "/elsewhere": LoopbackResponse(html: "<title>Elsewhere</title><p id=value>elsewhere</p>"),
            "/slow-plain": LoopbackResponse(body: "<title>Plain</title><p id=value>plain</p>", contentType: "text/html; charset=utf-8", delay: 1),
        ])
        defer { server.stop() }
        try await PageFixtures.onPage(engine, server) { page in
            for round in 0..<2 {
                let leaving = try await page.openAndRun(server.url("/leaving"), script: Self.script, timeout: 10)
                guard case let .ran(left, _) = leaving else {
                    Issue.record("\(engine) round \(round): the leaving page was skipped")
                    return
                }
                // On a busy machine the page may have led the browser on before the run.
                #expect(left.value == .string("leaving /leaving") || left.value == .string("elsewhere /elsewhere"), "\(engine) round \(round)")
                let visit = try await page.openAndRun(server.url("/slow-plain"), script: Self.script, timeout: 10)
                guard case let .ran(result, _) = visit else {
                    Issue.record("\(engine) round \(round): skipped")
                    return
                }
                #expect(result.value == .string("plain /slow-plain"), "\(engine) round \(round)")
                #expect(result.context.url == server.url("/slow-plain"), "\(engine) round \(round)")
            }
        }
    }

    /// The page sends the browser on as its load ends, to a page whose server sends half the
    /// document at once and the rest a moment later: a run that reaches that document while it is
    /// still being parsed waits for its load, as a visit waits for the page it asked for, so the
    /// script never sees half a page.
    @Test(arguments: PageFixtures.everyEngine)
    func aRunThatFindsTheNextDocumentStillLoadingWaitsForIt(engine: Engine) async throws {
        let half = "<title>Streamed</title><p id=value>str"
        let server = try LoopbackServer(responses: [
            "/": LoopbackResponse(html: "<title>Start</title>"),
            "/leaving": LoopbackResponse(html: """
                <title>Leaving</title><p id=value>leaving</p>
                <script>addEventListener("load", function () { location.href = "/streamed"; });</script>
                """),
            "/streamed": LoopbackResponse(status: 200, headers: [("Content-Type", "text/html; charset=utf-8")], body: Array((half + "eamed</p>").utf8),
                                          delivery: .pauses(after: half.utf8.count, seconds: 0.4)),
        ])
        defer { server.stop() }
        try await PageFixtures.onPage(engine, server) { page in
            var wrong: [String] = []
            for round in 0..<6 {
                do {
                    let visit = try await page.openAndRun(server.url("/leaving"), script: Self.script, timeout: 10)
                    guard case let .ran(result, _) = visit else {
                        wrong.append("\(round): skipped")
                        continue
                    }
                    let mine = result.value == .string("leaving /leaving") && result.context.url == server.url("/leaving")
                    let ledOn = result.value == .string("streamed /streamed") && result.context.url == server.url("/streamed")
                    if !mine && !ledOn {
                        wrong.append("\(round): \(String(describing: result.value)) at \(result.context.url) \(String(describing: result.error))")
                    }
                } catch let InjectionError.navigatedAway(to, _) {
                    if to != server.url("/streamed") { wrong.append("\(round): left for \(to)") }
                } catch let InjectionError.pageChanged(_, to) {
                    if to != server.url("/streamed") { wrong.append("\(round): moved to \(to)") }
                }
            }
            #expect(wrong.isEmpty, "\(engine): \(wrong)")
        }
    }

    /// A server's redirect is the address's own answer: the result is the page it led to, under
    /// the address it ended at.
    @Test(arguments: PageFixtures.everyEngine)
    func aServersRedirectIsNotAPageLeaving(engine: Engine) async throws {
        let server = try Self.site()
        defer { server.stop() }
        try await PageFixtures.onPage(engine, server) { page in
            for _ in 0..<2 {
                let visit = try await page.openAndRun(server.url("/moved"), script: Self.script, timeout: 10)
                guard case let .ran(result, _) = visit else {
                    Issue.record("skipped: \(visit)")
                    return
                }
                #expect(result.value == .string("plain /plain"))
                #expect(result.context.url == server.url("/plain"))
            }
        }
    }
}
