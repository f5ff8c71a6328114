import Foundation
import SystemSupport
import Testing
import TestSupport

/// `pagescript edit` in a real terminal (tmux) on a loopback page, as terminal programs are
/// expected to behave: no colours under `NO_COLOR`, and an Esc that never swallows the key after it.
@Suite(.serialized)
struct EditorConventionTests: EditorInTmux {
    let server: LoopbackServer
    let library: String
    let marker = ProcessProbe.newMarker()

    init() throws {
        server = try LoopbackServer(pages: ["/": "<!doctype html><title>Convention page</title><p>text</p>"])
        library = FileManager.default.temporaryDirectory.appendingPathComponent("pagescript-conventions-\(UUID().uuidString)").path
    }

    /// The SGR parameters that choose a colour (foreground, background, 256 and true colour), in
    /// what tmux shows of the screen's styles.
    static func colourParameters(in styled: String) -> [String] {
        var colours: Set<String> = []
        for range in [30...38, 40...48, 90...97, 100...107] {
            for number in range { colours.insert(String(number)) }
        }
        var found: [String] = []
        var rest = styled[...]
        while let start = rest.range(of: "\u{1B}[") {
            rest = rest[start.upperBound...]
            guard let end = rest.firstIndex(where: { !$0.isNumber && $0 != ";" }) else { break }
            if rest[end] == "m" {
                found += rest[..<end].split(separator: ";").map(String.init).filter(colours.contains)
            }
            rest = rest[end...]
        }
        return found
    }

    /// With `NO_COLOR` set to anything, the editor draws no colour, and keeps reverse video for its
    /// bars; set to the empty string, it means nothing (no-color.org), and the colours are back.
    @Test func noColorTakesTheColoursAwayAndLeavesReverseVideo() throws {
        defer { try? FileManager.default.removeItem(atPath: library); server.stop() }
        for (value, coloured) in [("1", false), ("", true)] {
            let terminal = try TmuxSession(command: editCommand(engine: "chromium"), environment: [marker.name: marker.value, "NO_COLOR": value])
            defer { terminal.kill() }
            try terminal.requireScreen(text: "Convention page")
            try terminal.type("const word = 'quoted' // a comment")
            try terminal.requireScreen(text: "a comment")
            let styled = try terminal.styledScreen().joined(separator: "\n")
            let colours = Self.colourParameters(in: styled)
            if coloured {
                #expect(!colours.isEmpty, "NO_COLOR='' leaves the colours: \(styled.debugDescription)")
            } else {
                #expect(colours.isEmpty, "NO_COLOR=1 still draws colours \(colours): \(styled.debugDescription)")
                #expect(styled.contains("\u{1B}[7m") || styled.contains(";7m") || styled.contains(";7;"), "the bars lost their reverse video")
            }
            try terminal.press("C-q")
            try terminal.requireScreen(text: "Quit anyway?")
            try terminal.press("y")
            try terminal.waitFor(timeout: 15) { _ in (try? terminal.hasExited()) == true }
            expectNothingLeft()
        }
    }

    /// Esc and Ctrl-S pressed together (one write, well within the Esc delay) close the panel
    /// and save, rather than being read as a Ctrl-Alt-S the editor does not have.
    @Test func escapeThenControlSQuicklySaves() throws {
        defer { try? FileManager.default.removeItem(atPath: library); server.stop() }
        let terminal = try TmuxSession(command: editCommand(engine: "chromium"), environment: [marker.name: marker.value])
        defer { terminal.kill() }
        try terminal.requireScreen(text: "Convention page")
        try terminal.type("document.title.length")
        try terminal.press("C-r")
        try terminal.requireScreen(text: "Result")
        try terminal.press("Escape", "C-s")
        let saved = try terminal.requireScreen("the save") { rows in rows.contains { $0.contains("Saved the script for") || $0.contains("does nothing here") } }
        #expect(saved.contains { $0.contains("Saved the script for") }, "\(saved.joined(separator: "\n"))")
        #expect(!saved.contains { $0.contains("Result") }, "Esc closed the panel: \(saved.joined(separator: "\n"))")
        try terminal.press("C-q")
        try terminal.waitFor(timeout: 15) { _ in (try? terminal.hasExited()) == true }
        expectNothingLeft()
    }
}
