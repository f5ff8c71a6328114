import Foundation
import SystemSupport
import TestSupport
import Testing
import UserScripts
@testable import GMAPI

/// `pagescript scripts values` and `pagescript scripts update`, run as the built executable.
struct ScriptCommandTests {
    static let text = "// ==UserScript==\n// @name Counter\n// @match *://example.com/*\n// @run-at document-end\n// ==/UserScript==\ncount();\n"

    @Test func valuesAreShownSetDeletedAndCleared() async throws {
        let folder = try TemporaryDirectory("cli")
        let stored = try ScriptLibrary(directory: folder.url).create(text: Self.text)
        let library = ["--library", folder.path]

        let empty = try await PageScriptProcess.run(["scripts", "values", "Counter"] + library)
        #expect(empty.status == 0)
        #expect(empty.standardOutput == "")

        let set = try await PageScriptProcess.run(["scripts", "values", "Counter", "--set", "count=3", "--set", "name=\"Ada\"", "--set", "prefs={\"dark\":true}", "--set", "debt=-5"] + library)
        #expect(set.status == 0, "\(set.standardError)")
        #expect(set.standardOutput == "count\t3\nname\t\"Ada\"\nprefs\t{\"dark\":true}\ndebt\t-5\n")
        #expect(try ScriptValueStore(libraryDirectory: folder.url).values(of: stored.id)["prefs"] == ["dark": true])

        let deleted = try await PageScriptProcess.run(["scripts", "values", stored.id.rawValue, "--delete", "name", "--json"] + library)
        #expect(deleted.status == 0)
        #expect(try JSONValue(parsing: deleted.standardOutput.trimmingCharacters(in: .newlines))
            == ["id": .string(stored.id.rawValue), "revision": 2, "values": ["count": 3, "prefs": ["dark": true], "debt": -5]])

        let cleared = try await PageScriptProcess.run(["scripts", "values", "Counter", "--clear"] + library)
        #expect(cleared.status == 0)
        #expect(cleared.standardOutput == "")
        #expect(try ScriptValueStore(libraryDirectory: folder.url).values(of: stored.id).isEmpty)
    }

    @Test func badValuesAndUnknownScriptsExitWith2() async throws {
        let folder = try TemporaryDirectory("cli")
        _ = try ScriptLibrary(directory: folder.url).create(text: Self.text)
        let library = ["--library", folder.path]
        let notJSON = try await PageScriptProcess.run(["scripts", "values", "Counter", "--set", "name=Ada"] + library)
        #expect(notJSON.status == 2)
        #expect(notJSON.standardError.contains("is not JSON"))
        let odd = try await PageScriptProcess.run(["scripts", "values", "Counter", "--set", "name"] + library)
        #expect(odd.status == 2)
        let unknown = try await PageScriptProcess.run(["scripts", "values", "Nobody"] + library)
        #expect(unknown.status == 2)
        #expect(unknown.standardError.contains("no script is called"))
    }

    @Test func keysFromAPageAreEscapedForTheTerminal() async throws {
        let folder = try TemporaryDirectory("cli")
        let stored = try ScriptLibrary(directory: folder.url).create(text: Self.text)
        try ScriptValueStore(libraryDirectory: folder.url).apply([.set(key: "\u{1b}]52;c;evil\u{07}", value: "\u{1b}[2J")], to: stored.id)
        let shown = try await PageScriptProcess.run(["scripts", "values", "Counter", "--library", folder.path])
        #expect(shown.status == 0)
        #expect(!shown.standardOutput.contains("\u{1b}"))
    }

    @Test func updateReportsEachScriptAndExitsWith1WhenOneIsRefused() async throws {
        let folder = try TemporaryDirectory("cli")
        let published = ScriptUpdaterTests.Site()
        let server = try LoopbackServer { request in published[request.path].map { .text($0) } ?? .notFound }
        defer { server.stop() }
        let library = try ScriptLibrary(directory: folder.url)
        let installed = ScriptUpdaterTests.script(version: "1.0", server: server)
        let stored = try library.create(text: installed)
        try DependencyCache(libraryDirectory: folder.url).recordInstalled(Array(installed.utf8), for: stored.id, from: nil)
        let newer = ScriptUpdaterTests.script(version: "1.5", server: server, body: "newer();")
        published["/tidy.meta.js"] = newer
        published["/tidy.user.js"] = newer

        let updated = try await PageScriptProcess.run(["scripts", "update", "Tidy", "--library", folder.path])
        #expect(updated.status == 0, "\(updated.standardError)")
        #expect(updated.standardOutput == "updated\t\(stored.id)\tTidy\t1.0 -> 1.5\n")
        #expect(updated.standardError.contains(".trash/"))
        #expect(try String(contentsOf: stored.file, encoding: .utf8) == newer)

        let current = try await PageScriptProcess.run(["scripts", "update", "--library", folder.path])
        #expect(current.status == 0)
        #expect(current.standardOutput == "current\t\(stored.id)\tTidy\t1.5 (available: 1.5)\n")

        // Edited by hand, then a newer version appears: refused, exit 1, until --force.
        try Data((newer + "// mine\n").utf8).write(to: stored.file)
        let newest = ScriptUpdaterTests.script(version: "2.0", server: server, body: "newest();")
        published["/tidy.meta.js"] = newest
        published["/tidy.user.js"] = newest
        let refused = try await PageScriptProcess.run(["scripts", "update", "Tidy", "--library", folder.path])
        #expect(refused.status == 1)
        #expect(refused.standardOutput.hasPrefix("edited\t\(stored.id)\tTidy\t1.5 -> 2.0 not installed"))
        #expect(refused.standardError.contains("--force"))
        let forced = try await PageScriptProcess.run(["scripts", "update", "Tidy", "--force", "--library", folder.path])
        #expect(forced.status == 0)
        #expect(try String(contentsOf: stored.file, encoding: .utf8) == newest)
    }
}
