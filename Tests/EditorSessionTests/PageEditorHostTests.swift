@testable import EditorSession
import Foundation
import Injection
import SystemSupport
import TerminalUI
import Testing
import TestSupport
import UserScripts
import WebDriver

/// The editor's host for a page, against a real library folder and, where it runs scripts, a
/// real page in WebKit.
@Suite(.serialized)
struct PageEditorHostTests {
    @Test func theEditorStartsWithTheSiteScriptsBody() throws {
        let folder = try TemporaryLibrary()
        defer { folder.remove() }
        let page = "http://127.0.0.1:8080/orders"
        #expect(PageEditorHost.initialScript(library: folder.library, pageURL: page) == "")

        _ = try folder.library.saveForSite(url: PageURL(page), code: "document.title\n")
        #expect(PageEditorHost.initialScript(library: folder.library, pageURL: page) == "document.title\n")
        // Another port is another site.
        #expect(PageEditorHost.initialScript(library: folder.library, pageURL: "http://127.0.0.1:8081/orders") == "")
        #expect(PageEditorHost.initialScript(library: folder.library, pageURL: "not a url") == "")
    }

    /// What the host gave for each key, collected on the page and checked after it closed.
    struct HostAnswers: Sendable {
        var ran: ScriptRunResult?
        var thrown: ScriptRunResult?
        var busyAfterwards = true
        var confirmation: String?
        var startsWith = ""
        var examples: [ScriptExample] = []
        var names: [String] = []
        var opened: NamedScript?
        var failure: String?
        var form: ScriptFormSettings?
    }

    @Test func theHostRunsOnThePageAndKeepsScriptsInTheLibrary() async throws {
        let server = try LoopbackServer(pages: ["/": "<!doctype html><title>Host page</title><p>one two</p>"])
        defer { server.stop() }
        let folder = try TemporaryLibrary()
        defer { folder.remove() }
        let library = folder.library
        let named = NamedScript(name: "Word count", code: "document.body.innerText.split(/\\s+/).length",
                                matchPatterns: ["http://127.0.0.1/*"], runAt: "document-idle")
        let answers = try await PageRunner.withPage(on: .local(.webkit), url: server.url(), scriptTimeout: 10) { page, context throws(PageRunner.Failure) in
            let busy = BusyFlag()
            let host = PageEditorHost.make(page: page, pageURL: context.url, library: library, busy: busy)
            var answers = HostAnswers(form: host.form)
            do {
                answers.ran = try await host.runner.run(script: "console.warn('careful'); document.title.length")
                answers.thrown = try await host.runner.run(script: "1;\nnull.boom")
                answers.busyAfterwards = busy.isBusy
                answers.confirmation = try await host.saveForSite?("document.title")
                answers.startsWith = PageEditorHost.initialScript(library: library, pageURL: context.url)
                answers.examples = try await host.examples?() ?? []
                try await host.saveNamedScript?(named)
                answers.names = try await host.scriptNames?() ?? []
                answers.opened = try await host.openScript?("Word count")
            } catch {
                answers.failure = "\(error)"
            }
            return answers
        }
        #expect(answers.failure == nil)
        // Ctrl-R: the value, the console, and an exception with its place in the script.
        #expect(answers.ran == ScriptRunResult(valueJSON: "9", console: [ConsoleLine(level: .warn, message: "careful")]))
        #expect(answers.thrown?.exception?.name == "TypeError")
        #expect(answers.thrown?.exception?.line == 2)
        #expect(!answers.busyAfterwards)
        // Ctrl-S: saved for the page's site, and what the editor opens there next time.
        #expect(answers.confirmation?.hasPrefix("Saved for 127.0.0.1:") == true, "\(answers.confirmation ?? "nothing")")
        #expect(answers.startsWith == "document.title")
        // Ctrl-E: the built-in examples, as code without their metadata block.
        #expect(answers.examples.count >= 8)
        #expect(answers.examples.allSatisfy { !$0.code.hasPrefix("\n") && !$0.code.contains("==UserScript==") })
        // Ctrl-N, then Ctrl-O: a named script keeps its patterns and run-at.
        #expect(answers.names.contains("Word count"))
        #expect(answers.opened == named)
        // The naming form checks each pattern as it is typed, with MatchPattern's reason.
        let form = try #require(answers.form)
        #expect(form.matchPatterns.problem("http://127.0.0.1/*") == nil)
        #expect(form.matchPatterns.problem("http://*.example.com") != nil)
        #expect(form.defaultMatchPatterns == ["*://127.0.0.1:\(server.port)/*"], "\(form.defaultMatchPatterns)")
    }

    @Test func theWatchdogNoticesADriverThatExits() async throws {
        let engine = try await BrowserEngine.start(.webkit)
        let session = try await engine.newSession(timeout: 30)
        let deaths = DeathLog()
        let watchdog = BrowserWatchdog(processes: { engine.processes }, session: session, interval: 0.1, isBusy: { false }) { reason in
            deaths.record(reason)
        }
        defer { watchdog.cancel() }
        try await Task.sleep(for: .milliseconds(500))
        #expect(deaths.reasons.isEmpty, "a live browser was reported dead: \(deaths.reasons)")

        let driver = try #require(engine.processes.first { $0.executablePath.hasSuffix("WebKitWebDriver") })
        driver.killGroupImmediately()
        let deadline = ContinuousClock.now + .seconds(10)
        while deaths.reasons.isEmpty, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        await engine.stop()
        // Whichever it sees first, the driver gone or its endpoint closed, it says so once.
        #expect(deaths.reasons.count == 1)
        let reason = deaths.reasons.first ?? ""
        #expect(reason.contains("WebKitWebDriver") || reason.hasPrefix("The browser closed"), "\(deaths.reasons)")
    }

    @Test func aBusyPageIsNotAskedWhetherItLives() async throws {
        let flag = BusyFlag()
        #expect(!flag.isBusy)
        let seenInside = await flag.during { flag.isBusy }
        #expect(seenInside)
        #expect(!flag.isBusy)
    }
}

/// The reasons a watchdog gave, in order.
final class DeathLog: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [String] = []
    var reasons: [String] { lock.withLock { recorded } }
    func record(_ reason: String) { lock.withLock { recorded.append(reason) } }
}
