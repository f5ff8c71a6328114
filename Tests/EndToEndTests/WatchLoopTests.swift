import Engines
import Foundation
import SystemSupport
import TestSupport
import Testing

/// The userscript author's loop, in a real terminal (tmux): the script file is saved from outside
/// PageScript, as an editor saves it, and the page follows. `browse --watch` on a private Xvfb:
/// a save by `sed -i` and one by a temporary renamed over the file each reload the page once,
/// and the new version's effect reaches the loopback server (`/effect?vN`, once per save); a save
/// that leaves the metadata block unclosed is reported, nothing reloads, and the page, which
/// reports what it shows (`/shows?vN`), keeps the version before's effect. `run --watch` repeats
/// the run on each save and reports a save it cannot use the same way.
@Suite(.serialized)
struct WatchLoopTests {
    /// A page that tells the server, over and over, which version of the script it shows.
    static let page = """
        <!doctype html><title>Watched</title><p>page</p><script>
        setInterval(function () { fetch('/shows?' + (document.body.dataset.version || 'none')); }, 200);
        </script>
        """

    /// The userscript, at `version`, for the pages of `site`; `closed: false` leaves its block open.
    static func script(_ version: String, site: String, closed: Bool = true) -> String {
        "// ==UserScript==\n// @name Watched\n// @match \(site)/*\n" + (closed ? "// ==/UserScript==\n" : "")
            + "document.body.dataset.version = '\(version)'; await fetch('/effect?\(version)'); 'version \(version)'\n"
    }

    /// Waits until `condition` holds (at most `seconds`: a guard against a hang, never a measure of speed).
    static func wait(seconds: Double = 30, _ what: String, until condition: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() {
            guard Date() < deadline else { throw WaitFailure(description: "not within \(seconds) s: \(what)") }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    struct WaitFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// Replaces `file` the way many editors save: a temporary in the same folder, renamed over it.
    static func writeThenRename(_ text: String, to file: URL) throws {
        let temporary = file.deletingLastPathComponent().appendingPathComponent(".\(file.lastPathComponent).swp")
        try Data(text.utf8).write(to: temporary)
        guard rename(temporary.path, file.path) == 0 else { throw WaitFailure(description: "rename: \(errnoDescription(currentErrno))") }
    }

    @Test(arguments: ["webkit", "chromium"])
    func browseWatchReloadsOncePerSaveAndKeepsTheVersionBeforeOnABrokenBlock(engine: String) throws {
        let server = try LoopbackServer(pages: ["/": Self.page])
        defer { server.stop() }
        let site = String(server.url("/").dropLast())
        let library = FileManager.default.temporaryDirectory.appendingPathComponent("pagescript-watch-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: library) }
        let added = try PageScriptBinary.run(["scripts", "new", "-e", Self.script("v1", site: site), "--library", library.path])
        #expect(added.status == 0, "\(added.standardError)")
        let file = try #require(try FileManager.default.contentsOfDirectory(at: library, includingPropertiesForKeys: nil)
            .first { $0.lastPathComponent.hasSuffix(".user.js") })
        let display = try XvfbDisplay.start(executable: "/usr/bin/Xvfb")
        defer { display.stop() }
        let marker = ProcessProbe.newMarker()
        let command = "'\(PageScriptBinary.path)' browse '\(server.url("/"))' --watch --engine \(engine) --library '\(library.path)'; echo \"browse exited $?\"; sleep 30"
        let terminal = try TmuxSession(command: command, columns: 160, rows: 40, environment: ["DISPLAY": display.name, marker.name: marker.value])
        defer { terminal.kill() }

        try terminal.waitFor(text: "✓ Watched → \"version v1\"", timeout: 60)
        try Self.wait("the first version's effect") { server.requests(for: "/effect?v1") == 1 }

        // sed -i writes a temporary and renames it over the script.
        let sed = Process()
        sed.executableURL = URL(fileURLWithPath: "/bin/sed")
        sed.arguments = ["-i", "s/v1/v2/g", file.path]
        try sed.run()
        sed.waitUntilExit()
        try Self.wait("the effect of the save by sed -i") { server.requests(for: "/effect?v2") == 1 }
        try terminal.waitFor(text: "✓ Watched → \"version v2\"")
        #expect(try terminal.screen().contains { $0.contains("Watched saved (\(file.lastPathComponent)): reloading the page") })

        try Self.writeThenRename(Self.script("v3", site: site), to: file)
        try Self.wait("the effect of the save by rename") { server.requests(for: "/effect?v3") == 1 }
        try terminal.waitFor(text: "✓ Watched → \"version v3\"")

        // An unclosed block: reported, nothing reloads, and the page keeps showing v3's effect.
        try Self.writeThenRename(Self.script("v4", site: site, closed: false), to: file)
        let refused = try terminal.waitFor(text: "the version before keeps running")
        #expect(refused.contains { $0.contains("\(file.lastPathComponent) saved, not used: line 1:") }, "\(refused)")
        let shownBefore = server.requests(for: "/shows?v3")
        try Self.wait("the page reporting v3's effect after the broken save") { server.requests(for: "/shows?v3") > shownBefore + 2 }
        #expect(server.requests(for: "/effect?v4") == 0)
        #expect(server.requests(for: "/shows?v4") == 0)

        // Once per save: one load of the page at first and one per usable save, each version's effect once.
        #expect(server.requests(for: "/") == 3, "\(server.requestedPaths.filter { !$0.hasPrefix("/shows") })")
        for version in ["v1", "v2", "v3"] {
            #expect(server.requests(for: "/effect?\(version)") == 1, "\(version): \(server.requestedPaths.filter { $0.hasPrefix("/effect") })")
        }

        try terminal.type("q")
        try terminal.waitFor(text: "browse exited 0")
        Thread.sleep(forTimeInterval: 0.5)
        let left = ProcessProbe.processes(withEnvironment: marker.name, value: marker.value)
            .filter { !$0.contains("tmux") && !$0.contains("/bin/sh") && !$0.contains("sleep") }
        #expect(left.isEmpty, "still running: \(left)")
    }

    @Test func runWatchRepeatsTheRunOnEachSaveAndKeepsTheRunBeforeOnABrokenBlock() throws {
        let server = try LoopbackServer(pages: ["/": "<!doctype html><title>Hello</title><p>hi</p>"])
        defer { server.stop() }
        let site = String(server.url("/").dropLast())
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pagescript-run-watch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("watched.user.js")
        try Data(Self.script("v1", site: site).utf8).write(to: file)
        let marker = ProcessProbe.newMarker()
        let command = "'\(PageScriptBinary.path)' run '\(server.url("/"))' -f '\(file.path)' --watch --library '\(folder.path)/library'; echo \"run exited $?\"; sleep 30"
        let terminal = try TmuxSession(command: command, columns: 160, rows: 40, environment: [marker.name: marker.value])
        defer { terminal.kill() }

        try terminal.waitFor(text: "\"version v1\"", timeout: 60)
        let sed = Process()
        sed.executableURL = URL(fileURLWithPath: "/bin/sed")
        sed.arguments = ["-i", "s/v1/v2/g", file.path]
        try sed.run()
        sed.waitUntilExit()
        let second = try terminal.waitFor(text: "\"version v2\"", timeout: 60)
        #expect(second.contains { $0.contains("== run 2: \(file.path) saved") }, "\(second)")

        try Self.writeThenRename(Self.script("v3", site: site, closed: false), to: file)
        let refused = try terminal.waitFor(text: "the run before stands")
        #expect(refused.contains { $0.contains("saved, not run: line 1:") }, "\(refused)")

        try Self.writeThenRename(Self.script("v4", site: site), to: file)
        let fourth = try terminal.waitFor(text: "\"version v4\"", timeout: 60)
        #expect(fourth.contains { $0.contains("== run 3: \(file.path) saved") }, "\(fourth)")
        #expect(server.requests(for: "/effect?v3") == 0)
        for version in ["v1", "v2", "v4"] {
            #expect(server.requests(for: "/effect?\(version)") == 1, "\(version): \(server.requestedPaths)")
        }

        try terminal.press("C-c")
        try terminal.waitFor(text: "run exited 130")
        Thread.sleep(forTimeInterval: 0.5)
        let left = ProcessProbe.processes(withEnvironment: marker.name, value: marker.value)
            .filter { !$0.contains("tmux") && !$0.contains("/bin/sh") && !$0.contains("sleep") }
        #expect(left.isEmpty, "still running: \(left)")
    }
}
