import Foundation
import TestSupport
import Testing
@testable import UserScripts

struct ImportExportTests {
    static let tampermonkey = """
        // ==UserScript==
        // @name         Better search
        // @namespace    http://tampermonkey.net/
        // @version      0.3
        // @description  Cleans up search results
        // @author       someone
        // @match        https://www.example.com/search*
        // @include      *://example.org/*
        // @include      *.google.*
        // @exclude      *://example.org/account/*
        // @grant        GM_setValue
        // @require      https://code.jquery.com/jquery-3.7.1.min.js
        // ==/UserScript==

        (function() { 'use strict'; })();

        """

    /// Every script of the corpus goes in and comes out byte for byte, and is read as expected.
    @Test(arguments: RealWorldCorpus.scripts)
    func importAndExportKeepEveryByte(_ corpus: CorpusScript) throws {
        let folder = try TemporaryDirectory()
        let source = folder.file("downloads/\(corpus.file)")
        try FileManager.default.createDirectory(at: source.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(corpus.bytes).write(to: source)
        let library = try ScriptLibrary(directory: folder.file("library"))
        let report = try library.importScripts(from: source)
        let entry = try #require(report.entries.first)
        guard case .imported(let stored) = entry.outcome else {
            Issue.record("not imported: \(entry.outcome)")
            return
        }
        #expect(Array(try Data(contentsOf: stored.file)) == corpus.bytes)
        #expect(stored.interpretation.runMode == corpus.runMode)
        #expect(stored.interpretation.notes.filter(\.isSetAside).map(\.line) == corpus.setAsideLines,
                "\(stored.interpretation.notes.filter(\.isSetAside))")
        #expect(entry.interpretation == stored.interpretation)

        let exported = try library.export(to: folder.file("export"))
        let destination = try #require(exported.entries.first?.destination)
        #expect(Array(try Data(contentsOf: destination)) == corpus.bytes)

        // A new library reading the same folder cold (through its index) concludes the same.
        let reopened = try ScriptLibrary(directory: folder.file("library"))
        #expect(try reopened.interpretation(of: stored.id) == stored.interpretation)
        #expect(try reopened.script(id: stored.id).script.text == stored.script.text)
    }

    @Test func aWholeFolderOfRealScriptsImportsAndExportsUnchanged() throws {
        let folder = try TemporaryDirectory()
        for script in RealWorldCorpus.scripts {
            let target = folder.file("backup/\(script.file)")
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(script.bytes).write(to: target)
        }
        let library = try ScriptLibrary(directory: folder.file("library"))
        let report = try library.importScripts(from: folder.file("backup"))
        #expect(report.imported.count == RealWorldCorpus.scripts.count)
        #expect(report.refused.isEmpty)
        _ = try library.export(to: folder.file("export"))
        let exported = try folder.entries("export").map { Array(try Data(contentsOf: folder.file("export/\($0)"))) }
        #expect(Set(exported) == Set(RealWorldCorpus.scripts.map(\.bytes)))
    }

    @Test func importReportsHowItReadsAScriptAndChangesNothing() throws {
        let folder = try TemporaryDirectory()
        let source = try folder.write(Self.tampermonkey, to: "downloads/Better search.user.js")
        let library = try ScriptLibrary(directory: folder.file("library"))
        let report = try library.importScripts(from: source)
        let entry = try #require(report.entries.first)
        guard case .imported(let stored) = entry.outcome else {
            Issue.record("not imported: \(entry.outcome)")
            return
        }
        #expect(stored.name == "Better search")
        #expect(stored.script.text == Self.tampermonkey)
        let summary = try #require(entry.interpretation?.importSummary)
        #expect(summary.first == "runs automatically at document-idle (no @run-at: Tampermonkey's default)")
        #expect(summary.contains { $0.hasPrefix("line 8: @include *://example.org/* narrowed: read as http://example.org:80/*, https://example.org:443/*") })
        #expect(summary.contains { $0.hasPrefix("line 9: @include *.google.* set aside") && $0.contains("Did you mean `*://*.google.com/*`?") })
        #expect(summary.contains("asks for files: 1 @require, 0 @resource"))
        #expect(try library.which(url: try PageURL("https://example.org/")).map(\.script.id) == [stored.id])
        #expect(try library.which(url: try PageURL("https://example.org/account/x")).isEmpty)
        #expect(try library.which(url: try PageURL("https://www.google.com/")).isEmpty)
        #expect(stored.interpretation.requires.map(\.url?.absoluteString) == ["https://code.jquery.com/jquery-3.7.1.min.js"])
    }

    @Test func onlyFilesThatAreNotTextAreRefused() throws {
        let folder = try TemporaryDirectory()
        try folder.write(Self.tampermonkey, to: "backup/a.user.js")
        try folder.write("// ==UserScript==\n// @name Broken\n", to: "backup/nested/b.user.js")
        try folder.write("alert(1)\n", to: "backup/nested/c.user.js")
        try Data([0x2F, 0x2F, 0x20, 0xC3, 0x28, 0x0A]).write(to: folder.file("backup/nested/latin1.user.js"))
        try folder.write("{}", to: "backup/a.options.json")
        try folder.write("x", to: "backup/.hidden/d.user.js")
        let library = try ScriptLibrary(directory: folder.file("library"))
        let report = try library.importScripts(from: folder.file("backup"))
        #expect(report.entries.map(\.source.lastPathComponent) == ["a.user.js", "b.user.js", "c.user.js", "latin1.user.js"])
        #expect(report.imported.map(\.name) == ["Better search", "b", "c"])
        #expect(report.refused.map(\.reason) == ["is not UTF-8 text; save it as UTF-8 and import it again"])
        #expect(report.imported[1].interpretation.runMode == .onDemand(.blockNotClosed(line: 1)))

        // Importing the same files again adds nothing.
        let again = try library.importScripts(from: folder.file("backup"))
        #expect(again.imported.isEmpty)
        #expect(again.entries.filter { if case .alreadyInLibrary = $0.outcome { true } else { false } }.count == 3)
        #expect(try library.scripts().count == 3)
    }

    @Test func aMissingSourceIsAnError() throws {
        let folder = try TemporaryDirectory()
        let library = try ScriptLibrary(directory: folder.file("library"))
        #expect(throws: LibraryError.self) { try library.importScripts(from: folder.file("nothing")) }
    }

    @Test func exportWritesFilesOtherManagersCanImportAndNeverClobbers() throws {
        let folder = try TemporaryDirectory()
        let library = try ScriptLibrary(directory: folder.file("library"))
        let first = try library.create(text: "// ==UserScript==\n// @name Same\n// ==/UserScript==\n1\n")
        let second = try library.create(text: "// ==UserScript==\n// @name Same\n// ==/UserScript==\n2\n")
        let other = try library.create(text: "// ==UserScript==\n// @name Other one\n// ==/UserScript==\n3\n")
        let report = try library.export(to: folder.file("export"))
        #expect(Set(report.entries.map(\.destination.lastPathComponent)) == ["Same-\(first.id).user.js", "Same-\(second.id).user.js", "Other one.user.js"])
        #expect(report.entries.allSatisfy { $0.outcome == .written })
        #expect(try folder.read("export/Other one.user.js") == other.script.text)

        #expect(try library.export(to: folder.file("export")).entries.allSatisfy { $0.outcome == .unchanged })
        try folder.write("someone else's file", to: "export/Other one.user.js")
        let refused = try library.export(to: folder.file("export"), ids: [other.id])
        #expect(refused.entries.map(\.outcome) == [.refused(reason: "a different file is already there")])
        #expect(try folder.read("export/Other one.user.js") == "someone else's file")
        #expect(try library.export(to: folder.file("export"), ids: [other.id], replacingExisting: true).entries.map(\.outcome) == [.written])
    }

    /// An exported file keeps the script's name in any script, changed only where a file system
    /// refuses it, and is readable by others as any new file is; the library's own stay private.
    @Test func exportKeepsNamesInAnyScriptAndWritesOrdinaryFiles() throws {
        let folder = try TemporaryDirectory()
        let library = try ScriptLibrary(directory: folder.file("library"))
        let names = ["整理表格", "Café: a/b\u{7}c", "..hidden", String(repeating: "長", count: 120), "Case", "case"]
        var ids: [String: ScriptID] = [:]
        for name in names {
            ids[name] = try library.create(text: "// ==UserScript==\n// @name \(name)\n// ==/UserScript==\n1\n").id
        }
        let report = try library.export(to: folder.file("export"))
        let byID = Dictionary(uniqueKeysWithValues: report.entries.map { ($0.id, $0.destination.lastPathComponent) })
        let files = ids.mapValues { byID[$0] ?? "" }
        #expect(files["整理表格"] == "整理表格.user.js")
        let refused = try #require(files["Café: a/b\u{7}c"])
        #expect(refused.hasPrefix("Café: a-b") && !refused.unicodeScalars.contains { $0.properties.generalCategory == .control }, "\(refused)")
        #expect(files["..hidden"] == "hidden.user.js")
        let long = try #require(files[String(repeating: "長", count: 120)])
        #expect(long.utf8.count <= 255 && long.hasPrefix("長長長") && long.hasSuffix(".user.js"), "\(long)")
        #expect(files["Case"] == "Case-\(ids["Case"]!).user.js" && files["case"] == "case-\(ids["case"]!).user.js")

        let umask = try Self.umask()
        for entry in report.entries {
            let mode = try #require(FileManager.default.attributesOfItem(atPath: entry.destination.path)[.posixPermissions] as? Int)
            #expect(mode == 0o644 & ~umask, "\(entry.destination.lastPathComponent): \(String(mode, radix: 8))")
        }
        let stored = try library.scripts().map(\.file.path)
        for path in stored {
            let mode = try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
            #expect(mode == 0o600, "\(path): \(String(mode, radix: 8))")
        }
    }

    /// The process's umask, as Linux reports it (reading it with umask(2) would change it).
    static func umask() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("Umask:") })
        return try #require(Int(line.dropFirst("Umask:".count).trimmingCharacters(in: .whitespaces), radix: 8))
    }

    @Test func anExportedScriptImportsBackUnchanged() throws {
        let folder = try TemporaryDirectory()
        let library = try ScriptLibrary(directory: folder.file("one"))
        let stored = try library.create(text: RoundTripTests.tampermonkeyScript)
        _ = try library.export(to: folder.file("export"))
        let other = try ScriptLibrary(directory: folder.file("two"))
        let report = try other.importScripts(from: folder.file("export"))
        #expect(report.imported.map(\.script.text) == [stored.script.text])
    }
}
