import Engines
import Foundation
import GMAPI
import SystemSupport
import TestSupport
import Testing
import UserScripts
@testable import PageRuntime

/// `GM_addValueChangeListener` after its run, and the tab objects of `GM_saveTab`, in real
/// pages: a write by another process (the library's values file written by another store) is
/// heard with `remote` true and taken into the run's copy of the values, a write by a later run
/// in the same document with `remote` false, a removed listener hears nothing, and a tab object
/// saved in one run is the one tab's in the next.
@Suite(.serialized)
struct GMValueListenerPageTests {
    static func script(_ body: String) -> UserScript {
        let grants = ["GM_setValue", "GM_getValue", "GM_addValueChangeListener", "GM_removeValueChangeListener", "GM_registerMenuCommand",
                      "GM_saveTab", "GM.getTab", "GM.getTabs"]
        let lines = ["// ==UserScript==", "// @name Listener", "// @namespace https://pagescript.test/"] + grants.map { "// @grant \($0)" }
            + ["// ==/UserScript=="]
        return UserScript(text: lines.joined(separator: "\n") + "\n" + body)
    }

    struct Outcome: Sendable {
        var heardFromAnotherProcess: [String] = []
        var second: ScriptResult?
        var heardFromTheSecondRun: [String] = []
        var read: [String] = []
        var failure: String?
    }

    @Test(arguments: PageFixtures.engines)
    func listenersHearWritesMadeElsewhereAfterTheirRun(engine: Engine) async throws {
        let server = try LoopbackServer(pages: ["/": "<!doctype html><title>Values</title>"])
        defer { server.stop() }
        let temporary = try TemporaryDirectory("gm-listener-page")
        let library = temporary.file("library")
        let host = GMHost(libraryDirectory: library)
        let id = ScriptID("listener-page")
        let first = Self.script("""
            GM_addValueChangeListener("n", (key, old, now, remote) => console.log(["heard", key, old, now, remote].join(" ")));
            const gone = GM_addValueChangeListener("gone", () => console.log("heard gone"));
            GM_removeValueChangeListener(gone);
            GM_registerMenuCommand("read", () => console.log("read " + GM_getValue("n")));
            GM_saveTab({ who: "first" });
            "listening";
            """)
        let second = Self.script("""
            GM_setValue("n", 6);
            const tab = await GM.getTab();
            const tabs = await GM.getTabs();
            return [tab.who, Object.keys(tabs).length];
            """)
        let outcome = try await PageFixtures.withPage(engine, url: server.url("/"), scriptTimeout: 20) { page -> Outcome in
            var outcome = Outcome()
            do throws(InjectionError) {
                let listening = try await page.run(userScript: first, id: id, host: host)
                // Another process's write: a store of its own on the same library.
                let written = try? ScriptValueStore(libraryDirectory: library).apply([.set(key: "n", value: 5), .set(key: "gone", value: 1)], to: id)
                if written == nil { outcome.failure = "the other store could not write" }
                outcome.heardFromAnotherProcess = try await page.serveLateUserScriptWork().output.flatMap(\.console).map(\.message)
                // The run's copy of the values has the new value too.
                let read = try await page.runMenuCommand("read", of: listening, script: id)
                outcome.read = read.console.dropFirst(listening.console.count).map(\.message)
                outcome.second = try await page.run(userScript: second, id: id, host: host)
                // (The menu command's line is the command's only: it does not come back among the later output.)
                outcome.heardFromTheSecondRun = try await page.serveLateUserScriptWork().output.flatMap(\.console).map(\.message)
            } catch {
                outcome.failure = error.description
            }
            return outcome
        }
        await host.shutdown()
        #expect(outcome.failure == nil, "\(outcome.failure ?? "")")
        #expect(outcome.heardFromAnotherProcess == ["heard n  5 true"])
        #expect(outcome.second?.value == .array([.string("first"), .integer(1)]), "\(String(describing: outcome.second))")
        #expect(outcome.heardFromTheSecondRun == ["heard n 5 6 false"])
        #expect(outcome.read == ["read 5"])
    }
}
