@testable import EditorSession
import Engines
import Foundation
import GMAPI
import PageRuntime
import ScriptConsole
import SystemSupport
import TerminalUI
import TestSupport
import Testing
import UserScripts

/// Issue 41, point 3: `GM_openInTab` in the editor opens a real tab that gets its own matching
/// scripts, on a real page on both engines; on a borrowed page the tab is handed to its owner.
@Suite(.serialized)
struct EditorTabsTests {
    static let pages = [
        "/": "<!doctype html><title>Opener</title>",
        "/next": "<!doctype html><title>Next page</title>",
    ]

    /// The editor's text, which opens a tab from the first page and, in the tab, keeps a tab object.
    static let opener = metadata + """
        if (location.pathname === "/next") {
            GM_saveTab({ seen: location.pathname });
            console.log("the editor's script in " + document.title);
        } else {
            GM_openInTab("/next");
            GM_openInTab("javascript:alert(1)");
            GM_openInTab("/incognito", { incognito: true });
            GM_openInTab("/next").close();
        }
        location.pathname === "/next" ? "in the tab" : "asked";
        """

    static let metadata = """
        // ==UserScript==
        // @name Opener
        // @match http://127.0.0.1/*
        // @grant GM_openInTab
        // @grant GM_saveTab
        // @grant GM.getTabs
        // ==/UserScript==

        """

    @Test(arguments: [Engine.webkit, .chromium])
    func aTabOpensWithItsOwnScriptsAndStaysOpen(engine: Engine) async throws {
        let server = try LoopbackServer(pages: Self.pages)
        defer { server.stop() }
        let folder = try TemporaryLibrary()
        defer { folder.remove() }
        _ = try folder.library.create(UserScript.make(name: "Tab helper", matches: ["http://127.0.0.1/next*"],
                                                      body: "console.log('helper at ' + location.pathname); 'helper done'"))
        _ = try folder.library.create(UserScript.make(name: "Elsewhere", matches: ["http://127.0.0.1/elsewhere*"], body: "'no'"))
        let opened = try await PageRunner.open(on: .local(engine), url: server.url("/"), scriptTimeout: 20)
        let page = EditorPage(opened) { address throws(PageRunner.Failure) in
            try await PageRunner.open(on: .local(engine), url: address, scriptTimeout: 20)
        }
        let turn = PageTurn()
        let session = PageEditorHost.UserScriptSession(
            host: GMHost(libraryDirectory: folder.library.directory), turn: turn, lateWork: LateWorkServer(page: page, turn: turn))
        let host = PageEditorHost.make(page: page, pageURL: server.url("/"), library: folder.library, loaded: LoadedScripts(),
                                       busy: BusyFlag(), session: session)
        let outcome = await { () async -> (ran: ScriptRunResult?, windows: Int, after: ScriptRunResult?, failure: String?) in
            do {
                let ran = try await host.runner.run(script: Self.opener)
                let windows = try await page.page.session.windowHandles(timeout: 10).count
                // Runs still go to the editor's page, where the script sees its object of the tab.
                let after = try await host.runner.run(script: Self.metadata + """
                    const tabs = await GM.getTabs();
                    return document.title + " " + JSON.stringify(Object.values(tabs));
                    """)
                return (ran, windows, after, nil)
            } catch {
                return (nil, 0, nil, "\(error)")
            }
        }()
        session.lateWork.stop()
        await page.close()
        await session.host.shutdown()

        #expect(outcome.failure == nil)
        let lines = outcome.ran?.console.map(\.message) ?? []
        #expect(outcome.ran?.value == .string("asked"), "\(String(describing: outcome.ran))")
        #expect(lines.contains("── GM_openInTab: \(server.url("/next")) (Next page) opened in a new tab, open until the editor closes"), "\(lines)")
        #expect(lines.contains("── in the tab, “Tab helper”:"), "\(lines)")
        #expect(lines.contains("helper at /next"), "\(lines)")
        #expect(lines.contains("→ \"helper done\""), "\(lines)")
        #expect(lines.contains("── in the tab, the editor's script:"), "\(lines)")
        #expect(lines.contains("the editor's script in Next page"), "\(lines)")
        #expect(lines.contains("→ \"in the tab\""), "\(lines)")
        #expect(!lines.contains { $0.contains("Elsewhere") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("── GM_openInTab: javascript:alert(1) not opened: a tab opens only http and https") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("── GM_openInTab: /incognito not opened: PageScript has no private window") }, "\(lines)")
        #expect(lines.contains("── GM_openInTab: /next not opened: the script closed it first"), "\(lines)")
        // The tab is open beside the editor's page, which runs go to.
        #expect(outcome.windows == 2)
        #expect(outcome.after?.value == .string("Opener [{\"seen\":\"/next\"}]"), "\(String(describing: outcome.after))")
    }

    /// The editor of `browse` runs on the user's own browser: the tabs are handed to `browse`,
    /// which opens them with their scripts when the editor closes; none opens here.
    @Test func aBorrowedPageHandsItsTabsOver() async throws {
        let server = try LoopbackServer(pages: Self.pages)
        defer { server.stop() }
        let folder = try TemporaryLibrary()
        defer { folder.remove() }
        let opened = try await PageRunner.open(on: .local(.webkit), url: server.url("/"), scriptTimeout: 20)
        let page = EditorPage(borrowing: opened.page, address: server.url("/"))
        let host = GMHost(libraryDirectory: folder.library.directory)
        let requests = EditorTabs.Requests()
        let outcome = await { () async -> (ran: ScriptResult?, windows: Int, failure: String?) in
            do {
                let ran = try await PageEditorHost.run(Self.opener, on: page.page, library: folder.library, host: host, tabs: requests)
                return (ran, try await opened.page.session.windowHandles(timeout: 10).count, nil)
            } catch {
                return (nil, 0, "\(error)")
            }
        }()
        await host.shutdown()
        await opened.close()

        #expect(outcome.failure == nil)
        #expect(requests.all == [server.url("/next")])
        #expect(outcome.windows == 1)
        let lines = outcome.ran?.console.map(\.message) ?? []
        #expect(lines.contains("── GM_openInTab: \(server.url("/next")) opens in a new tab of the browser, with its own scripts, when the editor closes"),
                "\(lines)")
    }
}
