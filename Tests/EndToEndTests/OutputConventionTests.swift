import Foundation
import SystemSupport
import TestSupport
import Testing

/// What every command owes a script or a pipeline that calls it: `--quiet` leaves out the title
/// and progress lines, and `--json` gives the library's and the engines' listings as JSON.
@Suite(.serialized)
struct OutputConventionTests {
    let server: LoopbackServer
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pagescript-conventions-\(UUID().uuidString)").path

    init() throws {
        server = try LoopbackServer(pages: ["/": "<!doctype html><title>Quiet page</title><p>text</p>"])
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    @Test func runWithQuietPrintsTheValueAndNoTitleLine() async throws {
        defer { try? FileManager.default.removeItem(atPath: folder); server.stop() }
        let loud = try await PageScriptBinary.outcome(of: ["run", server.url(), "-e", "document.title", "--engine", "chromium"])
        #expect(loud.standardError.contains("Quiet page"), "without --quiet the title line is there: \(loud.standardError)")
        let quiet = try await PageScriptBinary.outcome(of: ["run", server.url(), "-e", "console.log('logged'); document.title", "--engine", "chromium", "--quiet"])
        #expect(quiet.status == 0, "\(quiet.standardError)")
        #expect(quiet.standardOutput == "\"Quiet page\"\n")
        #expect(!quiet.standardError.contains("Quiet page") && !quiet.standardError.contains(server.url()), "\(quiet.standardError)")
        #expect(quiet.standardError.contains("logged"), "what the script logged is not a title line: \(quiet.standardError)")
    }

    /// On a terminal, `batch --quiet` draws no progress line and, when every page ran, says
    /// nothing at all; its records still go to standard output.
    @Test func batchWithQuietDrawsNoProgressOnATerminal() throws {
        defer { try? FileManager.default.removeItem(atPath: folder); server.stop() }
        try "\(server.url())\n".write(toFile: folder + "/urls.txt", atomically: true, encoding: .utf8)
        let marker = ProcessProbe.newMarker()
        let script = "await new Promise(function (done) { setTimeout(done, 4000) }); document.title"
        let command = "cd '\(folder)' && '\(PageScriptBinary.path)' batch urls.txt -e \"\(script)\" --engine chromium --quiet > records.jsonl; echo \"ended $?\"; sleep 10"
        // tmux may lose what a pane wrote just before it ended, so the shell stays a while.
        let terminal = try TmuxSession(command: command, environment: [marker.name: marker.value])
        defer { terminal.kill() }
        // Generous: on a busy machine a browser's first start can hang and be tried again.
        let deadline = Date().addingTimeInterval(150)
        var screens: [[String]] = []
        while Date() < deadline {
            let screen = try terminal.screen()
            screens.append(screen)
            if screen.contains(where: { $0.contains("ended") }) { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        let last = try #require(screens.last)
        #expect(last.contains("ended 0"), "\(last.joined(separator: "\n"))")
        #expect(last.filter { !$0.isEmpty } == ["ended 0"], "nothing but the shell's line: \(last.joined(separator: "\n"))")
        #expect(screens.allSatisfy { !$0.contains { $0.contains("pages") } }, "a progress line was drawn")
        let records = try String(contentsOfFile: folder + "/records.jsonl", encoding: .utf8)
        #expect(records.contains("\"Quiet page\""), "\(records)")
    }

    @Test func theLibrarysListingsAreJSON() async throws {
        defer { try? FileManager.default.removeItem(atPath: folder); server.stop() }
        let library = folder + "/library"
        let text = "// ==UserScript==\n// @name 整理表格\n// @match https://example.com/*\n// @include *.google.*\n// @require https://example.com/lib.js\n// ==/UserScript==\n1\n"
        try text.write(toFile: folder + "/tables.user.js", atomically: true, encoding: .utf8)
        let imported = try await PageScriptBinary.outcome(of: ["scripts", "import", folder + "/tables.user.js", "--no-fetch", "--library", library])
        #expect(imported.status == 0, "\(imported.standardError)")
        let id = try #require(imported.standardOutput.split(separator: "\t").dropFirst().first.map(String.init))

        let list = try await PageScriptBinary.outcome(of: ["scripts", "list", "--json", "--library", library])
        #expect(list.status == 0, "\(list.standardError)")
        let scripts = try #require(try JSONValue(parsing: list.standardOutput).arrayValue, "\(list.standardOutput)")
        #expect(scripts.count == 1)
        #expect(scripts.first?["id"]?.stringValue == id)
        #expect(scripts.first?["name"]?.stringValue == "整理表格")
        #expect(scripts.first?["enabled"] == .bool(true))
        #expect(scripts.first?["rules"]?.arrayValue?.first?["rule"]?.stringValue == "@match https://example.com/*")
        #expect(scripts.first?["blocked"]?.stringValue?.contains("lib.js") == true, "\(list.standardOutput)")

        let which = try await PageScriptBinary.outcome(of: ["scripts", "which", "https://example.com/a", "--all", "--json", "--library", library])
        let entries = try #require(try JSONValue(parsing: which.standardOutput).arrayValue, "\(which.standardOutput)")
        #expect(entries.first?["id"]?.stringValue == id)
        #expect(entries.first?["runsAutomatically"] == .bool(false), "its @require is not fetched: \(which.standardOutput)")
        #expect(entries.first?["reason"]?.stringValue?.contains("line 3") == true, "\(which.standardOutput)")

        let show = try await PageScriptBinary.outcome(of: ["scripts", "show", id, "--json", "--library", library])
        let shown = try JSONValue(parsing: show.standardOutput)
        #expect(shown["name"]?.stringValue == "整理表格")
        #expect(shown["file"]?.stringValue?.hasPrefix(library) == true)
        #expect(shown["requires"]?.arrayValue?.first?["url"]?.stringValue == "https://example.com/lib.js")
        #expect(shown["report"]?.arrayValue?.isEmpty == false, "\(show.standardOutput)")
        let both = try await PageScriptBinary.outcome(of: ["scripts", "show", id, "--json", "--source", "--library", library])
        #expect(both.status == 2)
    }

    @Test func theEnginesAreListedAsJSON() async throws {
        defer { try? FileManager.default.removeItem(atPath: folder); server.stop() }
        let outcome = try await PageScriptBinary.outcome(of: ["engines", "--json"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let engines = try #require(try JSONValue(parsing: outcome.standardOutput).arrayValue, "\(outcome.standardOutput)")
        let chromium = try #require(engines.first { $0["engine"]?.stringValue == "chromium" })
        #expect(chromium["installed"] == .bool(true), "the tests run Chromium: \(outcome.standardOutput)")
        #expect(chromium["programs"]?.arrayValue?.contains { $0["name"]?.stringValue == "chromedriver" && $0["version"]?.stringValue != nil } == true,
                "\(outcome.standardOutput)")
        let names = engines.compactMap { $0["engine"]?.stringValue }
        #expect(names.contains("webkit"), "\(names)")
    }
}
