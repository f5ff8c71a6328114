import Foundation
import Testing
import TestSupport
import WebDriver

/// `pagescript browse` in a real terminal (tmux) on Chromium, under a private Xvfb: the page's
/// title arrives escaped (a right-to-left override: Chromium turns control characters in a title
/// into spaces itself), a script's result and its menu command show, the command runs on its
/// key with its console line, `t` switches the script off for the site, and `q` ends browsing.
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
}
