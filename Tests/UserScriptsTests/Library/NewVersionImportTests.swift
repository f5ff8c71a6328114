import Foundation
import TestSupport
import Testing
@testable import UserScripts

/// Importing a file with the `@name` and `@namespace` of an installed script installs a new
/// version of it, as Tampermonkey and Violentmonkey do: no duplicate that runs beside it.
struct NewVersionImportTests {
    static func text(version: String, namespace: String = "https://example.com/tidy", body: String) -> String {
        "// ==UserScript==\n// @name Tidy\n// @namespace \(namespace)\n// @version \(version)\n// @match https://example.com/*\n// ==/UserScript==\n\(body)\n"
    }

    @Test func anotherVersionReplacesTheInstalledScriptAndKeepsTheOldFile() throws {
        let folder = try TemporaryDirectory()
        let library = try ScriptLibrary(directory: folder.url.appendingPathComponent("library"))
        let newer = try folder.write(Self.text(version: "1.1", body: "newer()"), to: "tidy-1.1.user.js")
        let older = try folder.write(Self.text(version: "1.0", body: "older()"), to: "tidy-1.0.user.js")
        let installed = try #require(try library.importScripts(from: newer).imported.first)
        let report = try library.importScripts(from: older)
        guard case let .updated(updated, previousFile, previousVersion)? = report.entries.first?.outcome else {
            Issue.record("not an update: \(report.entries)")
            return
        }
        #expect(updated.id == installed.id)
        #expect(previousVersion == "1.1")
        #expect(try library.scripts().map(\.id) == [installed.id])
        #expect(try library.script(id: installed.id).script.text == Self.text(version: "1.0", body: "older()"))
        #expect(try String(contentsOf: previousFile, encoding: .utf8) == Self.text(version: "1.1", body: "newer()"))
        let notes = ImportReport.updateNotes(updated, previousFile: previousFile, previousVersion: previousVersion)
        #expect(notes.first == "replaces version 1.1 with 1.0, a lower version")
        #expect(try library.matches(url: PageURL("https://example.com/")).count == 1)
    }

    @Test func anotherNamespaceIsAnotherScript() throws {
        let folder = try TemporaryDirectory()
        let library = try ScriptLibrary(directory: folder.url.appendingPathComponent("library"))
        let mine = try folder.write(Self.text(version: "1.0", body: "mine()"), to: "mine.user.js")
        let theirs = try folder.write(Self.text(version: "1.0", namespace: "https://other.example/", body: "theirs()"), to: "theirs.user.js")
        _ = try library.importScripts(from: mine)
        let report = try library.importScripts(from: theirs)
        guard case .imported? = report.entries.first?.outcome else {
            Issue.record("not a new script: \(report.entries)")
            return
        }
        #expect(try library.scripts().count == 2)
    }
}
