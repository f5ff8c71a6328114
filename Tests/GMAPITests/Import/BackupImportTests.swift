import Foundation
import SystemSupport
import TestSupport
import Testing
import UserScripts
@testable import GMAPI

/// Violentmonkey's and Tampermonkey's backups, built here in their documented layouts and zipped
/// by Python, restored into a real library: scripts byte for byte, values through the value
/// store, switches, and what could not be carried over said.
struct BackupImportTests {
    static func script(_ name: String, namespace: String = "https://example.com", body: String = "go();", extra: [String] = []) -> String {
        (["// ==UserScript==", "// @name \(name)", "// @namespace \(namespace)", "// @match https://example.com/*"] + extra
            + ["// ==/UserScript==", body]).joined(separator: "\r\n") + "\r\n"
    }

    static let tidy = script("Tidy up", body: String(repeating: "tidy();\n", count: 50))
    static let dark = script("Dark mode")

    /// Violentmonkey's export (`vm-export.vue`): two scripts, the `violentmonkey` entry with
    /// their settings, Violentmonkey's own settings and the values keyed by URI.
    static func violentmonkeyEntries(darkValues: String = #"{"theme": "sdark", "count": "n3", "seen": "btrue", "prefs": "o{\"size\":[1,2]}", "odd": "x?"}"#) -> [ZipFixture.Entry] {
        let settings = """
            {
              "scripts": {
                "Tidy up": {"config": {"enabled": 1, "shouldUpdate": 1}, "custom": {"origMatch": true, "pathMap": {}},
                            "position": 1, "lastModified": 1700000000000, "lastUpdated": 1700000000000},
                "Dark mode": {"config": {"enabled": 0, "shouldUpdate": 0},
                              "custom": {"match": ["https://dark.example/*"], "origInclude": false, "runAt": "document-start",
                                         "lastInstallURL": "https://example.com/dark.user.js", "from": "https://example.com/"},
                              "position": 2, "lastModified": 1700000000000, "lastUpdated": 1700000000000}
              },
              "settings": {"autoUpdate": 1, "editor": {"lineWrapping": true}},
              "values": {
                "https-3a-2f-2fexample.com-0aDark-20mode-0a": \(darkValues),
                "https-3a-2f-2fexample.com-0aGone-0a": {"x": "s1"}
              }
            }
            """
        return [.init("Tidy up.user.js", tidy), .init("Dark mode.user.js", dark), .init("violentmonkey", settings)]
    }

    @Test func aViolentmonkeyBackupIsRestoredWithValuesSwitchesAndWhatCouldNotBeCarried() async throws {
        let folder = try TemporaryDirectory("backup")
        let zip = try ZipFixture.write(Self.violentmonkeyEntries(), to: "violentmonkey-backup.zip", in: folder)
        let library = try ScriptLibrary(directory: folder.file("library"))
        let result = try await ScriptImporter(library: library).importScripts(from: zip)

        #expect(result.notes.first == "a Violentmonkey backup with 2 scripts")
        #expect(result.notes.contains("not carried over: Violentmonkey's own settings (settings); PageScript has its own"))
        #expect(result.notes.contains { $0.hasPrefix("not carried over: the order the scripts had in Violentmonkey") })
        #expect(result.notes.contains("not carried over: the values of 1 script not in the backup (values)"))
        #expect(result.entries.map(\.report.source.lastPathComponent) == ["Dark mode.user.js", "Tidy up.user.js"])

        let scripts = try library.scripts()
        let dark = try #require(scripts.first { $0.name == "Dark mode" })
        let tidy = try #require(scripts.first { $0.name == "Tidy up" })
        #expect(Array(try Data(contentsOf: dark.file)) == Array(Self.dark.utf8))
        #expect(Array(try Data(contentsOf: tidy.file)) == Array(Self.tidy.utf8))
        #expect(!dark.isEnabled)
        #expect(tidy.isEnabled)

        let values = try ScriptValueStore(libraryDirectory: library.directory).values(of: dark.id)
        #expect(values.object == ["theme": "dark", "count": 3, "seen": true, "prefs": ["size": [1, 2]]])
        #expect(try ScriptValueStore(libraryDirectory: library.directory).values(of: tidy.id).isEmpty)
        #expect(try DependencyCache(libraryDirectory: library.directory).installedOrigin(of: dark.id) == "https://example.com/dark.user.js")

        let notes = try #require(result.entries.first { $0.report.source.lastPathComponent == "Dark mode.user.js" }).notes
        #expect(notes.contains("4 values restored"))
        #expect(notes.contains { $0.hasPrefix("disabled, as in Violentmonkey: it runs only on demand") })
        #expect(notes.contains("not carried over: the value \"odd\": \"x?\" does not start with a type letter the managers write (s, n, b or o)"))
        #expect(notes.contains("not carried over: @match rules added in Violentmonkey (custom.match): https://dark.example/*"))
        #expect(notes.contains("not carried over: the file's own @include rules, switched off in Violentmonkey (custom.origInclude)"))
        #expect(notes.contains("not carried over: @run-at set in Violentmonkey (custom.runAt): \"document-start\""))
        #expect(notes.contains { $0.hasPrefix("not carried over: automatic updates were off (config.shouldUpdate)") })
        #expect(!notes.contains { $0.contains("pathMap") || $0.contains("custom.from") || $0.contains("lastInstallURL") })
        #expect(try #require(result.entries.first { $0.report.source.lastPathComponent == "Tidy up.user.js" }).notes.isEmpty)
    }

    /// Tampermonkey's backup: `NAME.user.js`, `NAME.options.json`, `NAME.storage.json`, and its
    /// copies of `@require` files (the layout of real backups).
    static func tampermonkeyEntries() -> [ZipFixture.Entry] {
        let options = """
            {"options":{"check_for_updates":true,"user_modified":null,"comment":"keep it","compatopts_for_requires":true,
             "compat_wrappedjsobject":false,"compat_metadata":false,"compat_foreach":false,"compat_powerful_this":null,"sandbox":null,
             "noframes":null,"unwrap":null,"run_at":null,"run_in":null,"tags":[],
             "override":{"use_includes":[],"orig_includes":[],"merge_includes":true,"use_matches":["https://extra.example/*"],
                         "orig_matches":["https://example.com/*"],"merge_matches":true,"use_excludes":[],"orig_excludes":[],
                         "merge_excludes":false,"use_connects":[],"orig_connects":[],"merge_connects":true,"use_blockers":[],
                         "orig_run_at":"document-idle","orig_noframes":null,"orig_run_in":[]}},
             "settings":{"enabled":false,"position":1},
             "meta":{"name":"Dark mode","uuid":"ab3a6f23-9cba-423a-abad-3f0159b08340","modified":1675763081753,
                     "file_url":"https://example.com/dark.user.js"}}
            """
        let storage = #"{"ts":1735401668840,"data":{"k_theme":"sdark","k_wide":"bfalse","k_count":"n12","k_conf":"o{\"a\":null}","k_raw":7}}"#
        let tidyOptions = #"{"options":{"check_for_updates":false,"override":{}},"settings":{"enabled":true,"position":2},"meta":{"name":"Tidy up","modified":1}}"#
        return [
            .init("Dark mode.user.js", dark), .init("Dark mode.options.json", options), .init("Dark mode.storage.json", storage),
            .init("Tidy up.user.js", tidy, method: .stored), .init("Tidy up.options.json", tidyOptions),
            .init("Tidy up.storage.json", #"{"ts":1735401668747,"data":{}}"#),
            .init("Tidy up.user.js-b2fa1cd06f7fc2055fddb119fd530a0d-jquery.min.js", "/* jquery */"),
            .init("Tidy up.user.js-b2fa1cd06f7fc2055fddb119fd530a0d-jquery.min.js.requires.json",
                  #"{"name":"jquery.min.js","url":"https://lib.example/jquery.min.js","ts":1721067958764,"mimetype":"text/javascript"}"#),
        ]
    }

    @Test func aTampermonkeyBackupIsRestoredWithValuesSwitchesAndWhatCouldNotBeCarried() async throws {
        let folder = try TemporaryDirectory("backup")
        let zip = try ZipFixture.write(Self.tampermonkeyEntries(), to: "tampermonkey-backup-chrome.zip", in: folder)
        let library = try ScriptLibrary(directory: folder.file("library"))
        let result = try await ScriptImporter(library: library).importScripts(from: zip)

        #expect(result.notes.first == "a Tampermonkey backup with 2 scripts")
        #expect(result.notes.contains("not carried over: Tampermonkey's copies of @require and @resource files; PageScript fetches each from its address"))
        #expect(!result.notes.contains { $0.hasPrefix("not read") }, "\(result.notes)")
        let scripts = try library.scripts()
        let dark = try #require(scripts.first { $0.name == "Dark mode" })
        let tidy = try #require(scripts.first { $0.name == "Tidy up" })
        #expect(Array(try Data(contentsOf: dark.file)) == Array(Self.dark.utf8))
        #expect(Array(try Data(contentsOf: tidy.file)) == Array(Self.tidy.utf8))
        #expect(!dark.isEnabled)
        #expect(tidy.isEnabled)
        let values = try ScriptValueStore(libraryDirectory: library.directory).values(of: dark.id)
        #expect(values.object == ["k_theme": "dark", "k_wide": false, "k_count": 12, "k_conf": ["a": .null]])
        #expect(try DependencyCache(libraryDirectory: library.directory).installedOrigin(of: dark.id) == "https://example.com/dark.user.js")
        #expect(try DependencyCache(libraryDirectory: library.directory).installedOrigin(of: tidy.id) == nil)

        let notes = try #require(result.entries.first { $0.report.source.lastPathComponent == "Dark mode.user.js" }).notes
        #expect(notes.contains("4 values restored"))
        #expect(notes.contains { $0.hasPrefix("disabled, as in Tampermonkey") })
        #expect(notes.contains("not carried over: the value \"k_raw\": it is 7, not a string with a type letter (s, n, b or o) as the managers store values"))
        #expect(notes.contains("not carried over: @match rules added in Tampermonkey (options.override.use_matches): https://extra.example/*"))
        #expect(notes.contains("not carried over: the file's own @exclude rules, switched off in Tampermonkey (options.override.merge_excludes)"))
        #expect(notes.contains("not carried over: a note set in Tampermonkey (options.comment): \"keep it\""))
        #expect(notes.contains { $0.hasPrefix("installed from https://example.com/dark.user.js") })
        let tidyNotes = try #require(result.entries.first { $0.report.source.lastPathComponent == "Tidy up.user.js" }).notes
        #expect(tidyNotes == [BackupText.updatesOff("options.check_for_updates")])
    }

    @Test func aScriptAlreadyInstalledIsReplacedAndItsValuesKeptUnlessTheBackupHasTheKey() async throws {
        let folder = try TemporaryDirectory("backup")
        let library = try ScriptLibrary(directory: folder.file("library"))
        let installed = try library.create(text: Self.script("Dark mode", body: "old();"))
        let store = ScriptValueStore(libraryDirectory: library.directory)
        try store.apply([.set(key: "theme", value: "light"), .set(key: "mine", value: 1), .set(key: "count", value: 3)], to: installed.id)

        let zip = try ZipFixture.write(Self.violentmonkeyEntries(), to: "backup.zip", in: folder)
        let result = try await ScriptImporter(library: library).importScripts(from: zip)
        let entry = try #require(result.entries.first { $0.report.source.lastPathComponent == "Dark mode.user.js" })
        guard case .updated(let updated, let previous, _) = entry.report.outcome else {
            Issue.record("expected an update, got \(entry.report.outcome)")
            return
        }
        #expect(updated.id == installed.id)
        #expect(try String(contentsOf: previous, encoding: .utf8) == Self.script("Dark mode", body: "old();"))
        #expect(Array(try Data(contentsOf: updated.file)) == Array(Self.dark.utf8))
        #expect(try store.values(of: installed.id).object == ["theme": "dark", "mine": 1, "count": 3, "seen": true, "prefs": ["size": [1, 2]]])
        #expect(entry.notes.contains("the value \"theme\" replaces the library's, which was \"light\""))
        #expect(!entry.notes.contains { $0.contains("\"count\" replaces") }, "the same value replaces nothing")
        #expect(entry.notes.contains { $0.hasPrefix("disabled, as in Violentmonkey (it was enabled in the library)") })
        #expect(try library.scripts().count == 2)

        // The same backup again: nothing new, nothing lost.
        let again = try await ScriptImporter(library: library).importScripts(from: zip)
        #expect(again.entries.allSatisfy { if case .alreadyInLibrary = $0.report.outcome { true } else { false } })
        #expect(try store.values(of: installed.id).object == ["theme": "dark", "mine": 1, "count": 3, "seen": true, "prefs": ["size": [1, 2]]])
    }

    enum Damage: String, CaseIterable {
        case badCRC, truncated, hostileName, corruptSettings
    }

    @Test(arguments: Damage.allCases)
    func aDamagedOrHostileBackupIsRefusedWhole(damage: Damage) async throws {
        let folder = try TemporaryDirectory("backup")
        var entries = Self.violentmonkeyEntries()
        entries[0] = .init("Tidy up.user.js", Self.tidy, method: .stored)
        if damage == .hostileName { entries.append(.init("../../evil.user.js", Self.script("Evil"))) }
        if damage == .corruptSettings { entries[2] = .init("violentmonkey", "{\"scripts\": {") }
        var bytes = try ZipFixture.archive(entries)
        switch damage {
        case .badCRC: bytes[try ZipFixture.dataOffset(of: "Tidy up.user.js", in: bytes) + 60] ^= 0x20
        case .truncated: bytes.removeLast(bytes.count / 3)
        case .hostileName, .corruptSettings: break
        }
        let zip = folder.file("backup.zip")
        try Data(bytes).write(to: zip)
        let library = try ScriptLibrary(directory: folder.file("library"))

        await #expect {
            _ = try await ScriptImporter(library: library).importScripts(from: zip.path)
        } throws: { error in
            guard case .unreadableBackup(let path, let reason)? = error as? ScriptImportError, path == zip.path else { return false }
            switch damage {
            case .badCRC: return reason == "the entry \"Tidy up.user.js\" is damaged: its content does not match its CRC-32"
            case .truncated: return reason.hasPrefix("it is not a zip archive, or it was cut short")
            case .hostileName: return reason == "the entry \"../../evil.user.js\" names a place outside the archive's folder"
            case .corruptSettings: return reason.hasPrefix("its entry \"violentmonkey\" cannot be read: it is not JSON")
            }
        }
        #expect(try library.scripts().isEmpty)
        let written = try folder.entries("library")
        #expect(written.allSatisfy { $0 == ".pagescript.lock" || $0 == ".pagescript-index" }, "\(written)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("evil.user.js").path))
    }

    @Test func aZipOfScriptsFromElsewhereIsImportedAsAFolderWouldBe() async throws {
        let folder = try TemporaryDirectory("backup")
        let zip = try ZipFixture.write([.init("scripts/Tidy up.user.js", Self.tidy), .init("README.txt", "hello")], to: "mine.zip", in: folder)
        let library = try ScriptLibrary(directory: folder.file("library"))
        let result = try await ScriptImporter(library: library).importScripts(from: zip)
        #expect(result.notes == ["a zip archive with 1 userscript", "not read: \"README.txt\""])
        #expect(Array(try Data(contentsOf: try library.find("Tidy up").file)) == Array(Self.tidy.utf8))
    }
}
