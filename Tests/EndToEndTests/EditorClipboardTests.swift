import Foundation
import SystemSupport
import TestSupport
import Testing

/// A userscript run in the editor puts its `GM_setClipboard` text on the terminal's clipboard
/// (OSC 52), read back here from a real tmux, which keeps such writes as paste buffers.
struct EditorClipboardTests {
    @Test func gmSetClipboardReachesTheTerminalsClipboard() throws {
        let server = try LoopbackServer(pages: ["/": "<!doctype html><title>Clipboard page</title>"])
        let library = FileManager.default.temporaryDirectory.appendingPathComponent("pagescript-clip-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: library); server.stop() }
        let marker = ProcessProbe.newMarker()
        let command = "'\(PageScriptBinary.path)' edit '\(server.url())' --library '\(library)' --engine chromium"
        let terminal = try TmuxSession(command: command, environment: [marker.name: marker.value])
        defer { terminal.kill() }
        try terminal.waitFor(text: "Clipboard page")
        #expect(terminal.clipboard() == nil)

        for line in ["// ==UserScript==", "// @grant GM_setClipboard", "// ==/UserScript=="] {
            try terminal.type(line)
            try terminal.press("Enter")
        }
        try terminal.type("GM_setClipboard('copied by ' + document.title), 7")
        try terminal.press("C-r")
        let ran = try terminal.waitFor(text: "The script put text on the clipboard")
        #expect(terminal.clipboard() == "copied by Clipboard page", "\(ran)")

        // The typed script was never saved: the editor asks before quitting.
        try terminal.press("C-q")
        try terminal.waitFor(text: "Quit anyway?")
        try terminal.press("y")
        try terminal.waitFor(timeout: 15) { _ in (try? terminal.hasExited()) == true }
    }
}
