import Foundation
import Testing
import TestSupport
import WebDriver

/// `pagescript browse` in a real terminal (tmux) on Chromium, under a private Xvfb: the page's
/// title arrives escaped (a right-to-left override: Chromium turns control characters in a title
/// into spaces itself), a script's result and its menu command show, the command runs on its
/// key with its console line, `t` switches the script off for the site, and `q` ends browsing;
/// `e` opens the editor on the same page and comes back.
@Suite(.serialized)
struct BrowseTerminalTests {
    @Test func showsTheTitleEscapedAndRunsAMenuCommandByItsKey() throws {
        let server = try LoopbackServer(pages: [
            "/": "<!doctype html><title>x</title><script>document.title = 'Evil\\u202eReversed';</script><p>page</p>",
        ])
        defer { server.stop() }
        let library = FileManager.default.temporaryDirectory.appendingPathComponent("pagescript-browse-tty-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: library) }
        let script = """
            // ==UserScript==
            // @name Marker
            // @match \(server.url("/").dropLast())/*
            // @grant GM_registerMenuCommand
            // ==/UserScript==
            GM_registerMenuCommand('Mark the page', function () { document.body.dataset.marked = 'yes'; console.log('marked: ' + document.body.dataset.marked); });
            'menu ready'
            """
        #expect(try PageScriptBinary.run(["scripts", "new", "-e", script, "--library", library]).status == 0)
        let display = try XvfbDisplay.start(executable: "/usr/bin/Xvfb")
        defer { display.stop() }
        let marker = ProcessProbe.newMarker()
        let command = "'\(PageScriptBinary.path)' browse '\(server.url("/"))' --engine chromium --library '\(library)'; sleep 30"
        let terminal = try TmuxSession(command: command, columns: 120, rows: 30, environment: ["DISPLAY": display.name, marker.name: marker.value])
        defer { terminal.kill() }

        let ran = try terminal.waitFor(text: "[1] Mark the page", timeout: 60)
        #expect(ran.contains { $0.contains("▸ Evil\\u{202E}Reversed  <\(server.url("/"))>") }, "\(ran)")
        #expect(ran.contains { $0.contains("✓ Marker → \"menu ready\"") }, "\(ran)")

        try terminal.type("1")
        let invoked = try terminal.waitFor(text: "console.log: marked: yes")
        #expect(invoked.contains { $0.contains("▹ Marker: Mark the page") }, "\(invoked)")

        try terminal.type("t")
        try terminal.waitFor(text: "Marker: off for 127.0.0.1:\(server.port)")
        let which = try PageScriptBinary.run(["scripts", "which", server.url("/"), "--all", "--library", library])
        #expect(which.standardOutput.contains("disabled on 127.0.0.1:\(server.port)"), "\(which.standardOutput)")

        try terminal.type("q")
        let ended = try terminal.waitFor(text: "stopped; the browser is closed")
        #expect(ended.contains { $0.contains("stopped; the browser is closed") }, "\(ended)")
        Thread.sleep(forTimeInterval: 0.5)
        let leftovers = ProcessProbe.processes(withEnvironment: marker.name, value: marker.value)
            .filter { !$0.contains("tmux") && !$0.contains("/bin/sh") && !$0.contains("sleep") }
        #expect(leftovers.isEmpty, "still running: \(leftovers)")
    }

    /// `e` opens the editor on the page the browser shows, in browse's own session: a run sees
    /// what browse's script did to that very page, Ctrl-S saves the site's script, and Ctrl-Q
    /// comes back to browse, which goes on reading keys until `q`.
    @Test func eOpensTheEditorOnThePageTheBrowserShows() throws {
        let server = try LoopbackServer(pages: ["/": "<!doctype html><title>Edit here</title><p>page</p>"])
        defer { server.stop() }
        let library = FileManager.default.temporaryDirectory.appendingPathComponent("pagescript-browse-edit-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: library) }
        let script = """
            // ==UserScript==
            // @name Marker
            // @match \(server.url("/").dropLast())/*
            // ==/UserScript==
            document.body.dataset.marked = 'by browse';
            'marked'
            """
        #expect(try PageScriptBinary.run(["scripts", "new", "-e", script, "--library", library]).status == 0)
        let display = try XvfbDisplay.start(executable: "/usr/bin/Xvfb")
        defer { display.stop() }
        let marker = ProcessProbe.newMarker()
        let command = "'\(PageScriptBinary.path)' browse '\(server.url("/"))' --library '\(library)'; echo \"browse exited $?\"; sleep 30"
        let terminal = try TmuxSession(command: command, columns: 120, rows: 30, environment: ["DISPLAY": display.name, marker.name: marker.value])
        defer { terminal.kill() }

        try terminal.waitFor(text: "✓ Marker → \"marked\"", timeout: 60)
        try terminal.type("e")
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
        let which = try PageScriptBinary.run(["scripts", "which", server.url("/"), "--library", library])
        #expect(which.standardOutput.contains("Marker"), "\(which.standardOutput)")
        #expect(which.standardOutput.split(separator: "\n").count >= 2, "the site script was not saved: \(which.standardOutput)")

        // Browse reads keys again.
        try terminal.type("q")
        let ended = try terminal.waitFor(text: "browse exited 0")
        #expect(ended.contains { $0.contains("stopped; the browser is closed") }, "\(ended)")
        Thread.sleep(forTimeInterval: 0.5)
        let leftovers = ProcessProbe.processes(withEnvironment: marker.name, value: marker.value)
            .filter { !$0.contains("tmux") && !$0.contains("/bin/sh") && !$0.contains("sleep") }
        #expect(leftovers.isEmpty, "still running: \(leftovers)")
    }
}
