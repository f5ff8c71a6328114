import Foundation
import SystemSupport
import Testing
import TestSupport

/// `pagescript edit URL FILE.user.js` in a real terminal (tmux) on a loopback page: the editor
/// shows a file of the user's own, outside the library, whole; Ctrl-S writes it back, never over
/// a change another program made meanwhile, and a file that does not exist yet is made by the
/// first save. The library is left alone.
@Suite(.serialized)
struct EditorFileTests {
    let server: LoopbackServer
    let folder: String
    let marker = ProcessProbe.newMarker()

    init() throws {
        server = try LoopbackServer(pages: ["/": "<!doctype html><title>File page</title><p>text</p>"])
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("pagescript-file-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder + "/library", withIntermediateDirectories: true)
    }

    func edit(_ file: String) throws -> TmuxSession {
        let command = "'\(PageScriptBinary.path)' edit '\(server.url())' '\(file)' --library '\(folder)/library' --engine chromium"
        return try TmuxSession(command: command, environment: [marker.name: marker.value])
    }

    func libraryScripts() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder + "/library").filter { $0.hasSuffix(".user.js") }
    }

    @Test func aFileOfTheUsersOwnIsSavedBackAndNeverOverAnOutsideChange() throws {
        defer { try? FileManager.default.removeItem(atPath: folder); server.stop() }
        let path = folder + "/tidy.user.js"
        let original = "// ==UserScript==\n// @name Tidy\n// @match http://127.0.0.1/*\n// ==/UserScript==\ndocument.title\n"
        try original.write(toFile: path, atomically: false, encoding: .utf8)
        let terminal = try edit(path)
        defer { terminal.kill() }
        let opened = try terminal.waitFor(text: "// @name Tidy")
        #expect(opened.first?.contains("File tidy.user.js") == true, "the title bar names the file: \(opened.first ?? "")")
        try terminal.press("C-r")
        try terminal.waitFor(text: "\"File page\"")
        try terminal.press("C-End")
        try terminal.type("more()")
        try terminal.press("C-s")
        try terminal.waitFor(text: "Saved \(path)")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == original + "more()")
        #expect(try libraryScripts().isEmpty, "the library was written to")

        let theirs = original + "theirs()\n"
        try theirs.write(toFile: path, atomically: false, encoding: .utf8)
        try terminal.type(" + 1")
        try terminal.press("C-s")
        try terminal.waitFor(text: "was changed by another program")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == theirs, "the outside change was overwritten")
        try terminal.press("r")
        try terminal.waitFor(text: "theirs()")
        try terminal.press("C-End")
        try terminal.type("again()")
        try terminal.press("C-s")
        try terminal.waitFor(text: "Saved \(path)")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == theirs + "again()", "a save goes on from their version once loaded")
        try terminal.press("C-q")
        try terminal.waitFor(timeout: 15) { _ in (try? terminal.hasExited()) == true }
    }

    @Test func aFileThatDoesNotExistYetIsMadeByTheFirstSave() throws {
        defer { try? FileManager.default.removeItem(atPath: folder); server.stop() }
        let path = folder + "/fresh.user.js"
        let terminal = try edit(path)
        defer { terminal.kill() }
        try terminal.waitFor(text: "// @name")
        #expect(!FileManager.default.fileExists(atPath: path), "nothing is written before a save")
        try terminal.press("C-End")
        try terminal.type("document.title")
        try terminal.press("C-s")
        try terminal.waitFor(text: "Saved \(path)")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("// @name") && text.contains("fresh"), "\(text)")
        #expect(text.contains("// @match") && text.contains("127.0.0.1"), "\(text)")
        #expect(text.hasSuffix("document.title"), "\(text)")
        try terminal.press("C-q")
        try terminal.waitFor(timeout: 15) { _ in (try? terminal.hasExited()) == true }
    }
}
