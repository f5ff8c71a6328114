import Engines
import Foundation
import SystemSupport
import TestSupport
import Testing

/// `pagescript browse` in a real terminal (tmux), under a private Xvfb: on Chromium the page's
/// title arrives escaped (a right-to-left override: Chromium turns control characters in a title
/// into spaces itself), a script's result and its menu command show, the command runs on its
/// key with its console line (once: not again among the lines logged later), `t` switches the
/// script off for the site, and `q` ends browsing; what ran in background tabs shows under their
/// escaped titles, and what their scripts log later under their addresses; on WebKit `e` opens
/// the editor on the same page and comes back.
@Suite(.serialized)
struct BrowseTerminalTests {
    @Test func showsTheTitleEscapedAndRunsAMenuCommandByItsKey() throws {
        let browse = try BrowseInTerminal(
            page: "<!doctype html><title>x</title><script>document.title = 'Evil\\u202eReversed';</script><p>page</p>",
            script: { site in
                """
                // ==UserScript==
                // @name Marker
                // @match \(site)/*
                // @grant GM_registerMenuCommand
                // ==/UserScript==
                GM_registerMenuCommand('Mark the page', function () { document.body.dataset.marked = 'yes'; console.log('marked: ' + document.body.dataset.marked); });
                'menu ready'
                """
            },
            engine: "chromium")
        defer { browse.stop() }
        let terminal = browse.terminal

        let ran = try terminal.waitFor(text: "[1] Mark the page", timeout: 60)
        #expect(ran.contains { $0.contains("▸ Evil\\u{202E}Reversed  <\(browse.server.url("/"))>") }, "\(ran)")
        #expect(ran.contains { $0.contains("✓ Marker → \"menu ready\"") }, "\(ran)")

        try terminal.type("1")
        let invoked = try terminal.waitFor(text: "console.log: marked: yes")
        #expect(invoked.contains { $0.contains("▹ Marker: Mark the page") }, "\(invoked)")
        // The late-work watch has handed over what was logged since, a few times over.
        Thread.sleep(forTimeInterval: 1)
        let once = try terminal.screen()
        #expect(once.filter { $0.contains("marked: yes") }.count == 1, "\(once)")

        try terminal.type("t")
        try terminal.waitFor(text: "Marker: off for 127.0.0.1:\(browse.server.port)")
        let which = try PageScriptBinary.run(["scripts", "which", browse.server.url("/"), "--all", "--library", browse.library])
        #expect(which.standardOutput.contains("disabled on 127.0.0.1:\(browse.server.port)"), "\(which.standardOutput)")

        try terminal.type("q")
        let ended = try terminal.waitFor(text: "browse exited 0")
        #expect(ended.contains { $0.contains("stopped; the browser is closed") }, "\(ended)")
        let left = browse.leftovers()
        #expect(left.isEmpty, "still running: \(left)")
    }

    /// A request to a host the script's `@connect` lines do not name is asked about, as in
    /// Tampermonkey: `a` allows it for good, the request goes through, and the answer is kept for
    /// the script, so `run` (which asks nobody) lets it through as well.
    @Test(arguments: ["webkit", "chromium"])
    func asksOnceAboutAHostTheScriptDoesNotDeclare(engine: String) throws {
        let browse = try BrowseInTerminal(
            page: "<!doctype html><title>Asking</title>",
            otherPages: ["/data": "<title>data</title>"],
            script: { site in
                """
                // ==UserScript==
                // @name Reacher
                // @match \(site)/
                // @grant GM_xmlhttpRequest
                // ==/UserScript==
                await new Promise(function (done) {
                  GM_xmlhttpRequest({ method: 'GET', url: location.origin.replace('127.0.0.1', 'localhost') + '/data',
                    onload: function (r) { console.log('reached', r.status); done(); }, onerror: function (e) { console.log('refused:', e.error); done(); } });
                });
                """
            },
            engine: engine)
        defer { browse.stop() }
        let terminal = browse.terminal
        let asked = try terminal.waitFor(text: "a allows it for good", timeout: 60)
        #expect(asked.contains { $0.contains("? Reacher wants to reach localhost") }, "\(asked)")
        try terminal.type("a")
        let reached = try terminal.waitFor(text: "console.log: reached 200")
        #expect(reached.contains { $0.contains("→ allowed for good") }, "\(reached)")
        try terminal.type("q")
        try terminal.waitFor(text: "browse exited 0")
        // Kept for the script: a run that asks nobody lets the request through.
        let run = try PageScriptBinary.run(["run", browse.server.url("/"), "--library", browse.library, "--engine", engine])
        #expect(run.standardError.contains("console.log: reached 200"), "\(run.standardError)")
        #expect(browse.leftovers().isEmpty)
    }

    /// On Chromium, what ran in tabs browse does not follow shows as it happens, under each tab's
    /// title (escaped) and address, and so does what their scripts log later (a timer's line),
    /// under the tab's address, not as the page in front's: the start page opens two tabs on
    /// another origin while it loads, before browse follows anything but the start page, so both
    /// stay in the background.
    @Test func showsWhatRanInBackgroundTabsEscaped() throws {
        let browse = try BrowseInTerminal(
            page: """
                <!doctype html><title>Start</title><script>
                var other = location.origin.replace('127.0.0.1', 'localhost');
                window.open(other + '/tab?1'); window.open(other + '/tab?2');
                </script>
                """,
            otherPages: ["/tab": "<!doctype html><title>x</title><script>document.title = 'Tab\\u202e ' + location.search;</script>"],
            script: { site in
                let other = site.replacingOccurrences(of: "127.0.0.1", with: "localhost")
                return "// ==UserScript==\n// @name Counter\n// @match \(other)/tab*\n// ==/UserScript==\n"
                    + "setTimeout(function () { console.log('later ' + location.search); }, 500);\n'seen ' + location.search\n"
            },
            engine: "chromium")
        defer { browse.stop() }
        let other = String(browse.server.url("/").dropLast()).replacingOccurrences(of: "127.0.0.1", with: "localhost")
        // The two tabs load side by side: either may be reported first.
        let screen = try browse.terminal.waitFor(timeout: 60) { screen in
            ["1", "2"].allSatisfy { tab in screen.contains { $0.contains("✓ Counter → \"seen ?\(tab)\"") } }
        }
        for tab in ["1", "2"] {
            #expect(screen.contains { $0.contains("◦ Tab\\u{202E} ?\(tab)  <\(other)/tab?\(tab)>  (a tab in the background)") }, "\(screen)")
        }
        let later = try browse.terminal.waitFor { screen in
            ["1", "2"].allSatisfy { tab in screen.contains { $0.contains("Counter: console.log: later ?\(tab)") } }
        }
        for tab in ["1", "2"] {
            let line = later.firstIndex { $0.contains("Counter: console.log: later ?\(tab)") } ?? 0
            #expect(line > 0 && later[line - 1].contains("◦ later, in the background tab <\(other)/tab?\(tab)>:"), "\(later)")
        }
        try browse.terminal.type("q")
        try browse.terminal.waitFor(text: "browse exited 0")
        let left = browse.leftovers()
        #expect(left.isEmpty, "still running: \(left)")
    }

    /// `e` opens the editor on the page the browser shows, in browse's own session: a run sees
    /// what browse's script did to that very page, Ctrl-S saves the site's script, and Ctrl-Q
    /// comes back to browse, which goes on reading keys until `q` (`e` pressed twice opens one
    /// editor).
    @Test func eOpensTheEditorOnThePageTheBrowserShows() throws {
        let browse = try BrowseInTerminal(
            page: "<!doctype html><title>Edit here</title><p>page</p>",
            script: { site in
                """
                // ==UserScript==
                // @name Marker
                // @match \(site)/*
                // ==/UserScript==
                document.body.dataset.marked = 'by browse';
                'marked'
                """
            },
            engine: nil)
        defer { browse.stop() }
        let terminal = browse.terminal

        try terminal.waitFor(text: "✓ Marker → \"marked\"", timeout: 60)
        // Pressed twice, `e` opens one editor: after it, `q` reaches browse, not a second editor.
        try terminal.type("ee")
        // The editor's status line shows where the cursor is; browse's lines never do.
        let editor = try terminal.waitFor(text: "Ln 1, Col 1", timeout: 30)
        #expect(editor.contains { $0.contains("Edit here") }, "\(editor)")
        try terminal.type("document.body.dataset.marked + ' in ' + document.title")
        try terminal.press("C-r")
        try terminal.waitFor(text: "by browse in Edit here")
        try terminal.press("C-s")
        try terminal.waitFor(text: "Saved the script for")
        try terminal.press("C-q")
        let back = try terminal.waitFor(text: "back from the editor")
        #expect(back.contains { $0.contains("is saved") }, "\(back)")
        let which = try PageScriptBinary.run(["scripts", "which", browse.server.url("/"), "--library", browse.library])
        #expect(which.standardOutput.contains("Marker"), "\(which.standardOutput)")
        #expect(which.standardOutput.split(separator: "\n").count >= 2, "the site script was not saved: \(which.standardOutput)")

        // Browse reads keys again.
        try terminal.type("q")
        let ended = try terminal.waitFor(text: "browse exited 0")
        #expect(ended.contains { $0.contains("stopped; the browser is closed") }, "\(ended)")
        let left = browse.leftovers()
        #expect(left.isEmpty, "still running: \(left)")
    }

    /// Issue 41, point 3: a `GM_openInTab` in browse's editor opens, once the editor closes, as a
    /// tab browse follows, in front, whose matching scripts run there.
    @Test func aTabTheEditorsScriptAsksForOpensInBrowse() throws {
        let browse = try BrowseInTerminal(
            page: "<!doctype html><title>Edit here</title>",
            otherPages: ["/tab": "<!doctype html><title>The new tab</title>"],
            script: { site in "// ==UserScript==\n// @name Marker\n// @match \(site)/tab\n// ==/UserScript==\n'marked ' + document.title\n" },
            engine: nil)
        defer { browse.stop() }
        let terminal = browse.terminal
        try terminal.waitFor(text: "Edit here", timeout: 60)
        try terminal.type("e")
        try terminal.waitFor(text: "Ln 1, Col 1", timeout: 30)
        for line in ["// ==UserScript==", "// @name Opener", "// @grant GM_openInTab", "// ==/UserScript==", "GM_openInTab('/tab'); 'asked'"] {
            try terminal.type(line)
            try terminal.press("Enter")
        }
        try terminal.press("C-r")
        let ran = try terminal.waitFor(text: "opens in a new tab of the browser", timeout: 30)
        #expect(ran.contains { $0.contains("\(browse.server.url("/tab")) opens in a new tab of the browser") }, "\(ran)")
        try terminal.press("C-q")
        try terminal.waitFor(text: "Quit anyway?")
        try terminal.press("y")
        let opened = try terminal.waitFor(text: "✓ Marker → \"marked The new tab\"", timeout: 60)
        #expect(opened.contains { $0.contains("GM_openInTab \(browse.server.url("/tab")): a new tab, followed from now on") }, "\(opened)")
        try terminal.type("q")
        try terminal.waitFor(text: "browse exited 0")
        let left = browse.leftovers()
        #expect(left.isEmpty, "still running: \(left)")
    }
}

/// `pagescript browse` on a loopback site (its start page at `/`) with one library script, in a
/// tmux pane on a private Xvfb display; the pane says `browse exited <status>` when browse ends.
private struct BrowseInTerminal {
    let server: LoopbackServer
    let library: String
    let terminal: TmuxSession
    private let display: XvfbDisplay
    private let marker: (name: String, value: String)

    /// - Parameters:
    ///   - page: The start page, at `/`.
    ///   - otherPages: The site's other pages, by path.
    ///   - script: The library script, given the site's origin for its `@match`.
    ///   - engine: `--engine`, or `nil` for the default.
    init(page: String, otherPages: [String: String] = [:], script: (String) -> String, engine: String?) throws {
        server = try LoopbackServer(pages: otherPages.merging(["/": page]) { $1 })
        library = FileManager.default.temporaryDirectory.appendingPathComponent("pagescript-browse-tty-\(UUID().uuidString)").path
        let added = try PageScriptBinary.run(["scripts", "new", "-e", script(String(server.url("/").dropLast())), "--library", library])
        #expect(added.status == 0, "\(added.standardError)")
        display = try XvfbDisplay.start(executable: "/usr/bin/Xvfb")
        marker = ProcessProbe.newMarker()
        let engineOption = engine.map { " --engine \($0)" } ?? ""
        let command = "'\(PageScriptBinary.path)' browse '\(server.url("/"))'\(engineOption) --library '\(library)'; echo \"browse exited $?\"; sleep 30"
        terminal = try TmuxSession(command: command, columns: 120, rows: 30, environment: ["DISPLAY": display.name, marker.name: marker.value])
    }

    /// What browse started that is still running, half a second after it ended.
    func leftovers() -> [String] {
        Thread.sleep(forTimeInterval: 0.5)
        return ProcessProbe.processes(withEnvironment: marker.name, value: marker.value)
            .filter { !$0.contains("tmux") && !$0.contains("/bin/sh") && !$0.contains("sleep") }
    }

    func stop() {
        terminal.kill()
        display.stop()
        server.stop()
        try? FileManager.default.removeItem(atPath: library)
    }
}
