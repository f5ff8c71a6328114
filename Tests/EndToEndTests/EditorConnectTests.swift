import Foundation
import SystemSupport
import TestSupport
import Testing

/// A userscript run in the editor that reaches a host its `@connect` lines do not name is asked
/// about on the status line, as `browse` and Tampermonkey ask; the answer holds for the session.
struct EditorConnectTests {
    @Test func asksAboutAHostTheScriptDoesNotDeclare() throws {
        let server = try LoopbackServer(pages: ["/": "<!doctype html><title>Asking page</title>", "/data": "<title>data</title>"])
        let library = FileManager.default.temporaryDirectory.appendingPathComponent("pagescript-connect-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: library); server.stop() }
        let marker = ProcessProbe.newMarker()
        let command = "'\(PageScriptBinary.path)' edit '\(server.url())' --library '\(library)' --engine chromium"
        let terminal = try TmuxSession(command: command, columns: 160, rows: 30, environment: [marker.name: marker.value])
        defer { terminal.kill() }
        try terminal.waitFor(text: "Asking page")

        for line in ["// ==UserScript==", "// @name Reacher", "// @grant GM_xmlhttpRequest", "// ==/UserScript=="] {
            try terminal.type(line)
            try terminal.press("Enter")
        }
        try terminal.type("await new Promise(done => GM_xmlhttpRequest({ url: location.origin.replace('127.0.0.1', 'localhost') + '/data', "
            + "onload: r => { console.log('reached', r.status); done(); }, onerror: e => { console.log('refused', e.error); done(); } }))")
        try terminal.press("C-r")
        let asked = try terminal.waitFor(text: "wants to reach localhost", timeout: 60)
        #expect(asked.contains { $0.contains("Allow this session") }, "\(asked)")
        try terminal.type("o")
        try terminal.waitFor(text: "reached 200", timeout: 60)

        // Allowed for the session: the next run is not asked.
        try terminal.press("C-r")
        try terminal.waitFor(timeout: 60) { screen in screen.filter { $0.contains("reached 200") }.count >= 1 }
        let again = try terminal.screen()
        #expect(!again.contains { $0.contains("wants to reach") }, "\(again)")

        try terminal.press("C-q")
        try terminal.waitFor(text: "Quit anyway?")
        try terminal.press("y")
        try terminal.waitFor(timeout: 15) { _ in (try? terminal.hasExited()) == true }
        #expect(ProcessProbe.processes(withEnvironment: marker.name, value: marker.value).isEmpty)
    }
}
