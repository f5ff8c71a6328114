import Foundation
import SystemSupport
import TestSupport
import Testing
import UserScripts
@testable import GMAPI

/// Values and fetched files travel with `scripts export` / `scripts import`.
struct ScriptTransferTests {
    @Test func valuesAndFetchedFilesSurviveAnExportAndAnImportIntoAnotherLibrary() async throws {
        let library = try TemporaryDirectory("source")
        let exported = try TemporaryDirectory("exported")
        let target = try TemporaryDirectory("target")
        let lib = "window.lib = 'offline';\n"
        let server = try LoopbackServer { _ in .text(lib) }
        let text = """
            // ==UserScript==
            // @name     Traveller
            // @match    *://example.com/*
            // @run-at   document-end
            // @require  \(server.url("/lib.js"))
            // @resource notes \(server.url("/notes.txt"))
            // ==/UserScript==
            lib();

            """
        let source = try ScriptLibrary(directory: library.url)
        let stored = try source.create(text: text)
        try ScriptValueStore(libraryDirectory: library.url).apply([.set(key: "visits", value: 12), .set(key: "prefs", value: ["dark": true])], to: stored.id)
        let fetched = try await DependencyFetcher.withFetcher(cache: DependencyCache(libraryDirectory: library.url)) {
            try await $0.fetch(for: stored.script, id: stored.id)
        }
        #expect(fetched.isComplete)
        server.stop()

        let report = try source.export(to: exported.url)
        let destination = try #require(report.entries.first?.destination)
        let written = try ScriptTransfer(libraryDirectory: library.url).export(id: stored.id, script: stored.script, besideScriptAt: destination)
        #expect(written == .init(values: 2, files: 2, refused: []))
        #expect(try exported.entries() == [".pagescript-cache", "Traveller.pagescript-files.json", "Traveller.storage.json", "Traveller.user.js"])
        #expect(try exported.read("Traveller.user.js") == text)
        let storage = try JSONValue(parsing: try exported.read("Traveller.storage.json"))
        #expect(storage["data"] == ["visits": 12, "prefs": ["dark": true]])

        // Another machine, offline: the import brings the values and the files along.
        let other = try ScriptLibrary(directory: target.url)
        let imported = try other.importScripts(from: exported.url)
        guard case .imported(let copy)? = imported.entries.first?.outcome else {
            Issue.record("not imported: \(imported.entries)")
            return
        }
        let read = try ScriptTransfer(libraryDirectory: target.url).importCompanions(besideScriptAt: exported.file("Traveller.user.js"), into: copy.id, script: copy.script)
        #expect(read == .init(values: 2, files: 2, refused: []))
        #expect(try ScriptValueStore(libraryDirectory: target.url).values(of: copy.id).object == ["visits": 12, "prefs": ["dark": true]])
        let files = try DependencyCache(libraryDirectory: target.url).runFiles(for: copy.script, id: copy.id)
        #expect(files.isRunnable)
        #expect(files.requires.map(\.text) == [lib])
        #expect(files.resource(named: "notes")?.text == lib)
    }

    @Test func aTamperedCacheFileInAnExportIsRefusedOnImport() throws {
        let exported = try TemporaryDirectory("exported")
        let target = try TemporaryDirectory("target")
        let script = UserScript(text: "// ==UserScript==\n// @name T\n// @require https://cdn.test/lib.js\n// ==/UserScript==\nlib();\n")
        let honest = Array("honest();\n".utf8)
        try exported.write("{\"format\":1,\"files\":{\"https://cdn.test/lib.js\":{\"sha256\":\"\(honest.sha256Hex)\",\"fetchedFrom\":\"https://cdn.test/lib.js\"}}}", to: "t.pagescript-files.json")
        try exported.write("evil();\n", to: ".pagescript-cache/\(honest.sha256Hex)")
        let summary = try ScriptTransfer(libraryDirectory: target.url).importCompanions(besideScriptAt: exported.file("t.user.js"), into: "t1234567", script: script)
        #expect(summary.files == 0)
        #expect(summary.refused == ["@require https://cdn.test/lib.js: its cached file is missing or damaged"])
        #expect(try DependencyCache(libraryDirectory: target.url).missing(for: script, id: "t1234567").count == 1)
    }

    @Test func aScriptWithNothingBesideItExportsNothingExtra() throws {
        let library = try TemporaryDirectory("source")
        let exported = try TemporaryDirectory("exported")
        let script = UserScript(text: "// ==UserScript==\n// @name Plain\n// ==/UserScript==\n1\n")
        let summary = try ScriptTransfer(libraryDirectory: library.url).export(id: "p1234567", script: script, besideScriptAt: exported.file("plain.user.js"))
        #expect(summary == .init(values: 0, files: 0, refused: []))
        #expect(try exported.entries().isEmpty)
    }
}
