import Foundation
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

    @Test func importsATampermonkeyScriptAndSaysWhatItDid() throws {
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
        let notes = entry.notes.map(\.description)
        #expect(notes.contains("line 8: @include *://example.org/* is matched as http://example.org:80/*, https://example.org:443/*"))
        #expect(notes.contains { $0.hasPrefix("line 9: @include `*.google.*` is refused") && $0.contains("The line is kept as a comment.") })
        #expect(notes.contains { $0.hasPrefix("line 10: @exclude *://example.org/account/* is matched as") })
        #expect(notes.contains { $0.hasPrefix("line 11: @grant GM_setValue is not provided by PageScript") })
        #expect(notes.contains { $0.hasPrefix("line 12: @require is not loaded by PageScript") })
        #expect(notes.contains { $0.hasPrefix("added @run-at document-idle") })

        let text = stored.script.text
        #expect(text.contains("// (set aside on import) @include      *.google.*\n"))
        #expect(text.contains("// @run-at       document-idle\n"))
        #expect(stored.script.issues.allSatisfy { !$0.preventsAutomaticRunning })
        #expect(try library.which(url: try PageURL("https://example.org/")).map(\.script.id) == [stored.id])
        #expect(try library.which(url: try PageURL("https://example.org/account/x")).isEmpty)
        #expect(try library.which(url: try PageURL("https://www.google.com/")).isEmpty)
    }

    @Test func anExclusionThatCannotBeMadeStrictRefusesTheFile() throws {
        let folder = try TemporaryDirectory()
        let source = try folder.write("// ==UserScript==\n// @name X\n// @match *://*.example.com/*\n// @exclude *logout*\n// ==/UserScript==\n", to: "x.user.js")
        let library = try ScriptLibrary(directory: folder.file("library"))
        let report = try library.importScripts(from: source)
        #expect(report.imported.isEmpty)
        let reason = try #require(report.refused.first?.reason)
        #expect(reason.hasPrefix("line 4: @exclude `*logout*` is refused"))
        #expect(reason.contains("pages its author excluded"))
        #expect(try library.scripts().isEmpty)
    }

    @Test func aFolderIsImportedFileByFile() throws {
        let folder = try TemporaryDirectory()
        try folder.write(Self.tampermonkey, to: "backup/a.user.js")
        try folder.write("// ==UserScript==\n// @name Broken\n", to: "backup/nested/b.user.js")
        try folder.write("alert(1)\n", to: "backup/nested/c.user.js")
        try folder.write("{}", to: "backup/a.options.json")
        try folder.write("x", to: "backup/.hidden/d.user.js")
        let library = try ScriptLibrary(directory: folder.file("library"))
        let report = try library.importScripts(from: folder.file("backup"))
        #expect(report.entries.map(\.source.lastPathComponent) == ["a.user.js", "b.user.js", "c.user.js"])
        #expect(report.imported.map(\.name) == ["Better search", "c"])
        #expect(report.refused.first?.reason.contains("line 1: `// ==UserScript==` is never closed") == true)

        // Importing the same files again adds nothing.
        let again = try library.importScripts(from: folder.file("backup"))
        #expect(again.imported.isEmpty)
        #expect(again.entries.filter { if case .alreadyInLibrary = $0.outcome { true } else { false } }.count == 2)
        #expect(try library.scripts().count == 2)
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
        #expect(Set(report.entries.map(\.destination.lastPathComponent)) == ["same-\(first.id).user.js", "same-\(second.id).user.js", "other-one.user.js"])
        #expect(report.entries.allSatisfy { $0.outcome == .written })
        #expect(try folder.read("export/other-one.user.js") == other.script.text)

        #expect(try library.export(to: folder.file("export")).entries.allSatisfy { $0.outcome == .unchanged })
        try folder.write("someone else's file", to: "export/other-one.user.js")
        let refused = try library.export(to: folder.file("export"), ids: [other.id])
        #expect(refused.entries.map(\.outcome) == [.refused(reason: "a different file is already there")])
        #expect(try folder.read("export/other-one.user.js") == "someone else's file")
        #expect(try library.export(to: folder.file("export"), ids: [other.id], replacingExisting: true).entries.map(\.outcome) == [.written])
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
