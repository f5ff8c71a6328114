import Engines
import Foundation
import GMAPI
import SystemSupport
import TestSupport
import Testing
import UserScripts
@testable import PageRuntime

/// `PageSession.runMenuCommand` in a real page where the same library script ran twice in one
/// document (as browse's run and an editor's run of it do), each registering a command of the
/// same name: each result's command is its own run's, and what the commands log is reported
/// once, never again among the lines logged later, while a timer's line logged before them is
/// still handed over, once. Engine-independent runtime logic: WebKit only.
@Suite(.serialized)
struct MenuCommandRunTests {
    static func script(_ body: String) -> UserScript {
        UserScript(text: "// ==UserScript==\n// @name Twice\n// @namespace https://pagescript.test/\n// @grant GM_registerMenuCommand\n// ==/UserScript==\n" + body)
    }

    struct Outcome: Sendable {
        var first: [String] = []
        var second: [String] = []
        var later: [String] = []
        var failure: String?
    }

    @Test func eachResultRunsItsOwnRunsCommandAndItsLinesShowOnce() async throws {
        let server = try LoopbackServer(pages: ["/": "<!doctype html><title>Menu</title>"])
        defer { server.stop() }
        let temporary = try TemporaryDirectory("menu-command-run")
        let host = GMHost(libraryDirectory: temporary.file("library"))
        let id = ScriptID("twice")
        let earlier = Self.script("""
            GM_registerMenuCommand("Which", () => console.log("the first run's command"));
            setTimeout(() => console.log("a timer of the first run"), 0);
            "first";
            """)
        let later = Self.script("""
            GM_registerMenuCommand("Which", () => console.log("the second run's command"));
            "second";
            """)
        let outcome = try await PageFixtures.withPage(.webkit, url: server.url("/"), scriptTimeout: 20) { page -> Outcome in
            var outcome = Outcome()
            do throws(InjectionError) {
                let first = try await page.run(userScript: earlier, id: id, host: host)
                let second = try await page.run(userScript: later, id: id, host: host)
                let ranFirst = try await page.runMenuCommand("Which", of: first, script: id)
                outcome.first = ranFirst.console.dropFirst(first.console.count).map(\.message)
                let ranSecond = try await page.runMenuCommand("Which", of: second, script: id)
                outcome.second = ranSecond.console.dropFirst(second.console.count).map(\.message)
                outcome.later = try await page.serveLateUserScriptWork(waitingAtMost: .milliseconds(100)).output.flatMap(\.console).map(\.message)
            } catch {
                outcome.failure = error.description
            }
            return outcome
        }
        await host.shutdown()
        #expect(outcome.failure == nil, "\(outcome.failure ?? "")")
        #expect(outcome.first == ["the first run's command"])
        #expect(outcome.second == ["the second run's command"])
        #expect(outcome.later == ["a timer of the first run"])
    }
}
