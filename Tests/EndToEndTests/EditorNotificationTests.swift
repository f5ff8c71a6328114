import Engines
import Foundation
import SystemSupport
import TestSupport
import Testing

/// Issue 41, point 2: `GM_notification` in `pagescript edit`, on a display with a notification
/// daemon (a private D-Bus session bus and a real dunst on the test's own Xvfb): the notification
/// is shown, and its click reaches the script's `onclick` and `ondone(true)`, whose lines join the
/// editor's console. WebKit: the display side is the same on every engine.
struct EditorNotificationTests {
    @Test func aNotificationIsShownAndItsClickReachesTheScript() throws {
        let server = try LoopbackServer(pages: ["/": "<!doctype html><title>Notify here</title>"])
        let library = FileManager.default.temporaryDirectory.appendingPathComponent("pagescript-edit-notify-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: library); server.stop() }
        let desktop = try NotificationDesktop()
        defer { desktop.stop() }

        let marker = ProcessProbe.newMarker()
        let command = "'\(PageScriptBinary.path)' edit '\(server.url())' --library '\(library)' --engine webkit"
        let terminal = try TmuxSession(command: command, columns: 160, rows: 40,
                                       environment: desktop.environment.merging([marker.name: marker.value]) { $1 })
        defer { terminal.kill() }
        try terminal.waitFor(text: "Notify here", timeout: 60)
        for line in ["// ==UserScript==", "// @name Notifier", "// @grant GM_notification", "// ==/UserScript==",
                     "GM_notification({ title: 'From the editor', text: 'Click me', onclick: () => console.log('clicked it'),",
                     "  ondone: (clicked) => console.log('done ' + clicked) }); 'shown'"] {
            try terminal.type(line)
            try terminal.press("Enter")
        }
        try terminal.press("C-r")
        try terminal.waitFor(text: "\"shown\"", timeout: 60)
        #expect(desktop.calls.waitFor(seconds: 10) { $0.contains("string \"From the editor\"") }, "\(desktop.calls.lines)")
        let click = try desktop.clickNewest()
        #expect(click.exitStatus() == 0, "\(click.lines)")
        let clicked = try terminal.waitFor(text: "done true", timeout: 30)
        #expect(clicked.contains { $0.contains("clicked it") }, "\(clicked)")
        #expect(!clicked.contains { $0.contains("reported, not shown") }, "\(clicked)")

        try terminal.press("C-q")
        try terminal.waitFor(text: "Quit anyway?")
        try terminal.press("y")
        try terminal.waitFor(timeout: 15) { _ in (try? terminal.hasExited()) == true }
        #expect(ProcessProbe.processes(withEnvironment: marker.name, value: marker.value).isEmpty)
    }
}
