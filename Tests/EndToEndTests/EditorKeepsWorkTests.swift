import Foundation
import SystemSupport
import Testing
import TestSupport

/// Issue 18, items 1 to 4, through `pagescript edit` in a real terminal (tmux) on a loopback
/// page: the editor never writes over a file another program changed, saves into the script on
/// screen, and keeps unsaved text when the browser or the terminal goes away.
@Suite(.serialized)
struct EditorKeepsWorkTests {
    let server: LoopbackServer
    let library: String
    let marker = ProcessProbe.newMarker()

    init() throws {
        server = try LoopbackServer(pages: ["/": "<!doctype html><title>Work page</title><p>text</p>"])
        library = FileManager.default.temporaryDirectory.appendingPathComponent("pagescript-work-\(UUID().uuidString)").path
    }

    func editCommand(engine: String) -> String {
        "'\(PageScriptBinary.path)' edit '\(server.url())' --library '\(library)' --engine \(engine)"
    }

    func scriptFiles() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: library).filter { $0.hasSuffix(".user.js") }.sorted()
    }

    func contents(_ file: String) throws -> String {
        try String(contentsOfFile: library + "/" + file, encoding: .utf8)
    }

    func recoveryCopies() -> [String] {
        let folder = library + "/.recovery"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.compactMap { try? String(contentsOfFile: folder + "/" + $0, encoding: .utf8) }
    }

    func leftovers() -> [String] {
        ProcessProbe.processes(withEnvironment: marker.name, value: marker.value)
            .filter { !$0.contains("tmux") && !$0.contains("/bin/sh") && !$0.contains("sleep") }
    }

    func expectNothingLeft(within seconds: Double = 15) {
        let deadline = Date().addingTimeInterval(seconds)
        while !leftovers().isEmpty, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.2)
        }
        #expect(leftovers().isEmpty, "still running: \(leftovers())")
    }

    /// Item 1: a file changed on disk is not overwritten; the user chooses.
    @Test(arguments: ["webkit", "chromium"])
    func aSaveOverAnOutsideChangeAsksAndKeepsBoth(engine: String) throws {
        defer { try? FileManager.default.removeItem(atPath: library); server.stop() }
        let terminal = try TmuxSession(command: editCommand(engine: engine), environment: [marker.name: marker.value])
        defer { terminal.kill() }
        try terminal.waitFor(text: "Work page")
        try terminal.type("first()")
        try terminal.press("C-s")
        try terminal.waitFor(text: "Saved the script for")
        let site = try #require(try scriptFiles().first)
        let outside = try contents(site) + "\noutside()\n"
        try outside.write(toFile: library + "/" + site, atomically: false, encoding: .utf8)

        try terminal.type(" second()")
        try terminal.press("C-s")
        let asked = try terminal.waitFor(text: "was changed by another program")
        #expect(asked.contains { $0.contains("Keep mine as a new script") }, "\(asked)")
        try terminal.press("d")
        let diff = try terminal.waitFor(text: "theirs (on disk)")
        #expect(diff.contains { $0.contains("− outside()") }, "\(diff)")
        #expect(diff.contains { $0.contains("+ first() second()") }, "\(diff)")
        // "d" again hides the diff (an Esc followed at once by "k" would read as Alt-K).
        try terminal.press("d")
        try terminal.waitFor(text: "Keep mine as a new script")
        try terminal.press("k")
        try terminal.waitFor(text: "(mine)")
        try terminal.press("Enter")
        let saved = try terminal.waitFor(text: "Saved as")
        #expect(saved.first?.contains("(mine)") == true, "the title bar names the new script: \(saved.first ?? "")")
        #expect(try contents(site) == outside, "the outside change was overwritten")
        let files = try scriptFiles()
        #expect(files.count == 2)
        let mine = try #require(files.first { $0 != site })
        #expect(try contents(mine).contains("first() second()"))
        try terminal.press("C-q")
        try terminal.waitFor(timeout: 15) { _ in (try? terminal.hasExited()) == true }
        expectNothingLeft()
    }

    /// Item 2: Ctrl-S writes into the script opened with Ctrl-O, which the title bar names.
    @Test func ctrlSSavesTheOpenedScriptNotTheSites() throws {
        defer { try? FileManager.default.removeItem(atPath: library); server.stop() }
        let created = try PageScriptBinary.run(["scripts", "new", "Word count", "--match", "http://127.0.0.1/*",
                                                "-e", "count()", "--library", library])
        #expect(created.status == 0, "\(created)")
        let named = try #require(try scriptFiles().first)
        let terminal = try TmuxSession(command: editCommand(engine: "chromium"), environment: [marker.name: marker.value])
        defer { terminal.kill() }
        let start = try terminal.waitFor(text: "Work page")
        #expect(start.first?.contains("Site script for 127.0.0.1") == true, "\(start.first ?? "")")
        try terminal.press("C-o")
        try terminal.waitFor(text: "Open script")
        try terminal.press("Enter")
        let opened = try terminal.waitFor(text: "count()")
        #expect(opened.first?.contains("Script “Word count”") == true, "\(opened.first ?? "")")
        try terminal.press("End")
        try terminal.type(" + 1")
        try terminal.press("C-s")
        try terminal.waitFor(text: "Saved “Word count”")
        #expect(try scriptFiles() == [named], "a site script was written")
        #expect(try contents(named).contains("count() + 1"))
        try terminal.press("C-q")
        try terminal.waitFor(timeout: 15) { _ in (try? terminal.hasExited()) == true }
        expectNothingLeft()
    }

    /// Item 3: the browser dies while editing; the text is kept and the user told where.
    @Test func aDeadBrowserLeavesARecoveryCopy() throws {
        defer { try? FileManager.default.removeItem(atPath: library); server.stop() }
        let terminal = try TmuxSession(command: editCommand(engine: "chromium"), environment: [marker.name: marker.value])
        defer { terminal.kill() }
        try terminal.waitFor(text: "Work page")
        try terminal.type("let unsaved = 'keep me'")
        try terminal.waitFor(text: "keep me")
        let browsers = ProcessProbe.processes(withEnvironment: marker.name, value: marker.value).filter {
            $0.split(separator: " ").dropFirst().first?.hasSuffix("/chromium") == true && !$0.contains("--type=")
        }
        #expect(!browsers.isEmpty)
        for browser in browsers {
            if let pid = Int32(browser.split(separator: " ")[0]) { kill(pid, SIGKILL) }
        }
        // The message comes after the editor left the screen, so it may wrap and scroll: it is
        // looked for in the pane's whole transcript.
        let deadline = Date().addingTimeInterval(20)
        var told = try terminal.transcript()
        while !told.contains("your unsaved script was kept in"), Date() < deadline {
            Thread.sleep(forTimeInterval: 0.1)
            told = try terminal.transcript()
        }
        #expect(told.contains("your unsaved script was kept in"), "\(told)")
        #expect(told.contains(".recovery/"), "\(told)")
        #expect(recoveryCopies() == ["let unsaved = 'keep me'"])
        expectNothingLeft()
    }

    /// Item 4: the terminal goes away (`tmux kill-server` closes it under the editor): a
    /// recovery copy, and nothing the run started is left, checked in /proc.
    @Test(arguments: ["webkit", "chromium"])
    func aTerminalThatGoesAwayStopsEverything(engine: String) throws {
        defer { try? FileManager.default.removeItem(atPath: library); server.stop() }
        let terminal = try TmuxSession(command: editCommand(engine: engine), environment: [marker.name: marker.value])
        try terminal.waitFor(text: "Work page")
        try terminal.type("let lost = 'not lost'")
        try terminal.waitFor(text: "not lost")
        #expect(!leftovers().isEmpty, "the probe does not see the run's processes")
        terminal.kill()
        expectNothingLeft(within: 20)
        #expect(recoveryCopies() == ["let lost = 'not lost'"])
    }

    /// Issue 39, point 18: a recovery copy is as private as the library's files, and the next
    /// editor on the site says what it found and offers it back; the copy stays, restored or not.
    @Test func theNextEditorOffersTheRecoveryCopyBackAndKeepsIt() throws {
        defer { try? FileManager.default.removeItem(atPath: library); server.stop() }
        let first = try TmuxSession(command: editCommand(engine: "chromium"), environment: [marker.name: marker.value])
        try first.waitFor(text: "Work page")
        try first.type("let kept = 'from last time'")
        try first.waitFor(text: "from last time")
        first.kill()
        expectNothingLeft(within: 20)
        let folder = library + "/.recovery"
        let copies = try FileManager.default.contentsOfDirectory(atPath: folder)
        try #require(copies.count == 1, "\(copies)")
        let copy = folder + "/" + copies[0]
        let mode = try #require(FileManager.default.attributesOfItem(atPath: copy)[.posixPermissions] as? Int)
        #expect(mode == 0o600, "the copy is \(String(mode, radix: 8)), the library's files 600")

        // Left in its file: the editor starts with the saved (empty) script, and says where the copy is.
        let second = try TmuxSession(command: editCommand(engine: "chromium"), environment: [marker.name: marker.value])
        defer { second.kill() }
        let asked = try second.requireScreen(text: "Restore it?")
        #expect(asked.contains { $0.contains("Unsaved text from") }, "\(asked.joined(separator: "\n"))")
        try second.press("n")
        let left = try second.requireScreen(text: "The text stays in")
        #expect(!left.contains { $0.contains("from last time") })
        try second.press("C-q")
        try second.waitFor(timeout: 15) { _ in (try? second.hasExited()) == true }
        expectNothingLeft()
        #expect(FileManager.default.fileExists(atPath: copy), "dismissing removed the copy")

        // Restored: the text is back as unsaved changes, and the copy stays.
        let third = try TmuxSession(command: editCommand(engine: "chromium"), environment: [marker.name: marker.value])
        defer { third.kill() }
        try third.requireScreen(text: "Restore it?")
        try third.press("y")
        let restored = try third.requireScreen(text: "from last time")
        #expect(restored.contains { $0.contains("Restored the text kept in") }, "\(restored.joined(separator: "\n"))")
        try third.press("C-s")
        try third.requireScreen(text: "Saved the script for")
        try third.press("C-q")
        try third.waitFor(timeout: 15) { _ in (try? third.hasExited()) == true }
        expectNothingLeft()
        #expect(recoveryCopies() == ["let kept = 'from last time'"])

        // Saved as it is, the copy is not offered again.
        let fourth = try TmuxSession(command: editCommand(engine: "chromium"), environment: [marker.name: marker.value])
        defer { fourth.kill() }
        let reopened = try fourth.requireScreen(text: "from last time")
        #expect(!reopened.contains { $0.contains("Restore it?") }, "\(reopened.joined(separator: "\n"))")
        try fourth.press("C-q")
        try fourth.waitFor(timeout: 15) { _ in (try? fourth.hasExited()) == true }
        expectNothingLeft()
    }
}
