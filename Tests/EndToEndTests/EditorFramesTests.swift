import Foundation
import SystemSupport
import TestSupport
import Testing

/// A userscript run in the editor also runs in the page's frames its rules claim, as a manager
/// runs it, and says which frame each outcome came from; with `@noframes`, in the page alone.
struct EditorFramesTests {
    @Test(arguments: ["webkit", "chromium"])
    func aUserscriptRunsInTheFramesItsRulesClaim(engine: String) throws {
        let server = try LoopbackServer(pages: [
            "/": "<!doctype html><title>Framing page</title><iframe src=\"/inner\"></iframe><iframe src=\"/other\"></iframe>",
            "/inner": "<!doctype html><title>Inner</title>",
            "/other": "<!doctype html><title>Other</title>",
        ])
        let library = FileManager.default.temporaryDirectory.appendingPathComponent("pagescript-frames-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: library); server.stop() }
        let marker = ProcessProbe.newMarker()
        let command = "'\(PageScriptBinary.path)' edit '\(server.url())' --library '\(library)' --engine \(engine)"
        let terminal = try TmuxSession(command: command, columns: 160, rows: 40, environment: [marker.name: marker.value])
        defer { terminal.kill() }
        try terminal.waitFor(text: "Framing page", timeout: 60)

        for line in ["// ==UserScript==", "// @name Framer", "// @match \(server.url("/"))", "// @match \(server.url("/inner"))",
                     "// ==/UserScript==", "'at ' + location.pathname"] {
            try terminal.type(line)
            try terminal.press("Enter")
        }
        try terminal.press("C-r")
        let ran = try terminal.waitFor(text: "→ \"at /inner\"", timeout: 60)
        #expect(ran.contains { $0.contains("in the frame \(server.url("/inner"))") }, "\(ran)")
        #expect(!ran.contains { $0.contains("/other") }, "\(ran)")

        // With @noframes, the page alone.
        try terminal.press("Up")
        try terminal.press("Up")
        try terminal.press("Home")
        try terminal.type("// @noframes")
        try terminal.press("Enter")
        try terminal.press("C-r")
        let alone = try terminal.waitFor(timeout: 60) { screen in
            screen.contains { $0.contains("\"at /\"") } && !screen.contains { $0.contains("in the frame") }
        }
        #expect(!alone.contains { $0.contains("at /inner") }, "\(alone)")

        try terminal.press("C-q")
        try terminal.waitFor(text: "Quit anyway?")
        try terminal.press("y")
        try terminal.waitFor(timeout: 15) { _ in (try? terminal.hasExited()) == true }
        #expect(ProcessProbe.processes(withEnvironment: marker.name, value: marker.value).isEmpty)
    }
}
