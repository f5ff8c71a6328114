import Foundation
import TestSupport
import Testing
@testable import UserScripts

struct ScriptLibraryTests {
    static let tidy = """
        // ==UserScript==
        // @name         Tidy
        // @match        *://example.com/*
        // @run-at       document-idle
        // @grant        none
        // ==/UserScript==

        tidy();

        """

    @Test func createsOneFilePerScriptNamedBySlugAndID() throws {
        let folder = try TemporaryDirectory()
        let library = try ScriptLibrary(directory: folder.url)
        let first = try library.create(text: Self.tidy)
        let second = try library.create(text: Self.tidy)
        #expect(first.id != second.id)
        #expect(first.name == "Tidy" && second.name == "Tidy")
        #expect(first.file.lastPathComponent == "tidy-\(first.id).user.js")
        #expect(first.id.rawValue.count == 8)
        #expect(try folder.read(first.file.lastPathComponent) == Self.tidy)
        #expect(try library.scripts().map(\.id).sorted() == [first.id, second.id].sorted())
        // Nothing else is written next to the scripts but the lock file and the index.
        #expect(try folder.entries().filter { !$0.hasSuffix(".user.js") }.sorted() == [".pagescript-index", ".pagescript.lock"])
    }

    @Test func createsTheFolderWithItsParents() throws {
        let folder = try TemporaryDirectory()
        let library = try ScriptLibrary(directory: folder.file("a/b/scripts"))
        _ = try library.create(text: Self.tidy)
        #expect(try folder.entries("a/b/scripts").count == 3)
    }

    @Test func renamingNeverMovesOrClobbersAFile() throws {
        let folder = try TemporaryDirectory()
        let library = try ScriptLibrary(directory: folder.url)
        var first = try library.create(text: Self.tidy)
        let second = try library.create(text: Self.tidy.replacingOccurrences(of: "Tidy", with: "Other"))
        try first.script.setValue("Other", forKey: "name")
        first = try library.save(first)
        #expect(first.file.lastPathComponent.hasPrefix("tidy-"))
        #expect(try library.scripts().count == 2)
        #expect(try library.script(id: second.id).name == "Other")
        #expect(try library.script(id: first.id).name == "Other")
    }

    @Test func saveWritesTheEditAndANewFingerprint() throws {
        let folder = try TemporaryDirectory()
        let library = try ScriptLibrary(directory: folder.url)
        var stored = try library.create(text: Self.tidy)
        try stored.script.setValue("1.1", forKey: "version")
        let saved = try library.save(stored)
        #expect(saved.fingerprint != stored.fingerprint)
        #expect(try folder.read(saved.file.lastPathComponent).contains("// @version      1.1\n"))
        var again = saved
        try again.script.setValue("1.2", forKey: "version")
        #expect(try library.save(again).script.version == "1.2")
    }

    @Test func aFileEditedByAnotherProgramIsNeverOverwrittenSilently() throws {
        let folder = try TemporaryDirectory()
        let library = try ScriptLibrary(directory: folder.url)
        var stored = try library.create(text: Self.tidy)
        let name = stored.file.lastPathComponent
        let theirs = Self.tidy.replacingOccurrences(of: "tidy();", with: "theirEdit();")
        try folder.write(theirs, to: name)

        stored.script.setBody("\nmyEdit();\n")
        let error = #expect(throws: LibraryError.self) { try library.save(stored) }
        #expect(error == .changedOnDisk(path: stored.file.path(percentEncoded: false)))
        #expect(error?.description.contains("changed by another program") == true)
        // Nothing is lost: their edit is on disk, mine is still in hand.
        #expect(try folder.read(name) == theirs)
        #expect(stored.script.body == "\nmyEdit();\n")
        // And the library already reads their version.
        #expect(try library.script(id: stored.id).script.body == "\ntheirEdit();\n")
    }

    @Test func anEditWithTheSameSizeAndTimeIsCaughtByTheContentHash() throws {
        let folder = try TemporaryDirectory()
        let library = try ScriptLibrary(directory: folder.url)
        var stored = try library.create(text: Self.tidy)
        let path = stored.file.path(percentEncoded: false)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        try folder.write(Self.tidy.replacingOccurrences(of: "tidy()", with: "tydi()"), to: stored.file.lastPathComponent)
        try FileManager.default.setAttributes([.modificationDate: attributes[.modificationDate] as Any], ofItemAtPath: path)
        try stored.script.setValue("2", forKey: "version")
        #expect(throws: LibraryError.changedOnDisk(path: path)) { try library.save(stored) }
    }

    @Test func overwritingChangesOnDiskMustBeAskedFor() throws {
        let folder = try TemporaryDirectory()
        let library = try ScriptLibrary(directory: folder.url)
        var stored = try library.create(text: Self.tidy)
        try folder.write("// changed elsewhere\n", to: stored.file.lastPathComponent)
        try stored.script.setValue("3", forKey: "version")
        let saved = try library.save(stored, overwritingChangesOnDisk: true)
        #expect(try folder.read(saved.file.lastPathComponent) == stored.script.text)
    }

    @Test func aDeletedFileIsNotRecreatedBySave() throws {
        let folder = try TemporaryDirectory()
        let library = try ScriptLibrary(directory: folder.url)
        let stored = try library.create(text: Self.tidy)
        try FileManager.default.removeItem(at: stored.file)
        #expect(throws: LibraryError.self) { try library.save(stored) }
        #expect(!FileManager.default.fileExists(atPath: stored.file.path(percentEncoded: false)))
    }

    @Test func invalidPatternsAreRefusedAtSaveWithTheReasonAndAFix() throws {
        let folder = try TemporaryDirectory()
        let library = try ScriptLibrary(directory: folder.url)
        let error = #expect(throws: LibraryError.self) {
            try library.create(text: "// ==UserScript==\n// @name Bad\n// @match www.google.*\n// ==/UserScript==\n")
        }
        guard case .invalidScript(_, let problems)? = error else {
            Issue.record("expected invalidScript, got \(String(describing: error))")
            return
        }
        #expect(problems.map(\.line) == [3])
        #expect(error?.description.contains("Did you mean `*://*.google.com/*`?") == true)
        #expect(try folder.entries().filter { $0.hasSuffix(".user.js") }.isEmpty)
    }

    @Test func anEditMadeInAnotherEditorIsWhatRunsNext() throws {
        let folder = try TemporaryDirectory()
        let library = try ScriptLibrary(directory: folder.url)
        let stored = try library.create(text: Self.tidy)
        let url = try PageURL("https://example.com/")
        #expect(try library.matches(url: url).map(\.id) == [stored.id])
        try folder.write(Self.tidy.replacingOccurrences(of: "*://example.com/*", with: "*://example.org/*"), to: stored.file.lastPathComponent)
        #expect(try library.matches(url: url).isEmpty)
        #expect(try library.matches(url: try PageURL("https://example.org/")).map(\.id) == [stored.id])
    }

    @Test func withManualReloadingOutsideEditsWaitForReloadIfChanged() throws {
        let folder = try TemporaryDirectory()
        let library = try ScriptLibrary(directory: folder.url, reloadPolicy: .manual)
        let stored = try library.create(text: Self.tidy)
        try folder.write(Self.tidy.replacingOccurrences(of: "Tidy", with: "Renamed"), to: stored.file.lastPathComponent)
        #expect(try library.script(id: stored.id).name == "Tidy")
        #expect(try library.reloadIfChanged())
        #expect(try library.script(id: stored.id).name == "Renamed")
        #expect(try !library.reloadIfChanged())
        // A save still refuses to overwrite an edit it has not seen.
        try folder.write(Self.tidy, to: stored.file.lastPathComponent)
        var edited = try library.script(id: stored.id)
        try edited.script.setValue("1", forKey: "version")
        #expect(throws: LibraryError.changedOnDisk(path: stored.file.path(percentEncoded: false))) { try library.save(edited) }
    }

    @Test func filesAddedByHandArePickedUpAndKeepTheirNameAsID() throws {
        let folder = try TemporaryDirectory()
        let library = try ScriptLibrary(directory: folder.url)
        #expect(try library.scripts().isEmpty)
        try folder.write("alert('hi')\n", to: "say-hello.user.js")
        try folder.write("not a script", to: "notes.txt")
        let scripts = try library.scripts()
        #expect(scripts.map(\.id) == [ScriptID("say-hello")])
        #expect(scripts.map(\.name) == ["say hello"])
        #expect(try library.find("say hello").id == ScriptID("say-hello"))
    }

    @Test func oddFilesAreReadLenientlyAndOnlyNonTextIsAProblem() throws {
        let folder = try TemporaryDirectory()
        let library = try ScriptLibrary(directory: folder.url)
        let good = try library.create(text: Self.tidy)
        let odd = "// ==UserScript==\n// @name A\n// @name B\n// ==/UserScript==\n"
        try folder.write(odd, to: "odd.user.js")
        try Data([0x2F, 0x2F, 0x20, 0xFF, 0xFE, 0x0A]).write(to: folder.file("binary.user.js"))
        let problems = try library.problems()
        #expect(problems.count == 1)
        #expect(problems.contains { $0.path.hasSuffix("binary.user.js") && $0.reason == "is not UTF-8 text" })
        let read = try library.find("odd")
        #expect(read.name == "A")
        #expect(read.interpretation.notes == [ScriptNote(kind: .duplicated(key: "name", firstLine: 2), line: 3)])
        #expect(Set(try library.scripts().map(\.id)) == [good.id, read.id])
        #expect(try folder.read("odd.user.js") == odd)
    }

    @Test func twoFilesWithTheSameIDAreReported() throws {
        let folder = try TemporaryDirectory()
        let library = try ScriptLibrary(directory: folder.url)
        let stored = try library.create(text: Self.tidy)
        try FileManager.default.copyItem(at: stored.file, to: folder.file("zz-copy-\(stored.id).user.js"))
        #expect(try library.scripts().count == 1)
        #expect(try library.problems().first?.reason.contains("same ID") == true)
    }

    @Test func deletingMovesTheFileToTheTrashAndNeverClobbersIt() throws {
        let folder = try TemporaryDirectory()
        let library = try ScriptLibrary(directory: folder.url)
        let stored = try library.create(text: Self.tidy)
        try library.setEnabled(false, id: stored.id)
        let trashed = try library.delete(id: stored.id)
        #expect(trashed.path(percentEncoded: false).hasSuffix(".trash/\(stored.file.lastPathComponent)"))
        #expect(try folder.read(".trash/\(stored.file.lastPathComponent)") == Self.tidy)
        #expect(try library.scripts().isEmpty)
        // Its switches are forgotten.
        #expect(try !folder.read(".pagescript-state.json").contains(stored.id.rawValue))
        // A second file of the same name gets a number in the trash.
        try folder.write(Self.tidy, to: stored.file.lastPathComponent)
        let again = try library.delete(id: stored.id)
        #expect(again.lastPathComponent == "tidy-\(stored.id).2.user.js")
        #expect(try folder.entries(".trash").count == 2)
    }

    @Test func enabledAndPerSiteSwitchesLiveInTheStateFile() throws {
        let folder = try TemporaryDirectory()
        let library = try ScriptLibrary(directory: folder.url)
        let stored = try library.create(text: Self.tidy.replacingOccurrences(of: "*://example.com/*", with: "*://*.example.com/*"))
        let www = try PageURL("https://www.example.com/")
        let shop = try PageURL("https://shop.example.com/")
        #expect(try library.matches(url: www).count == 1)

        try library.setDisabled(true, id: stored.id, on: Site(url: www))
        #expect(try library.matches(url: www).isEmpty)
        #expect(try library.matches(url: shop).count == 1)
        let inactive = try library.which(url: www, includingInactive: true)
        #expect(inactive.map(\.status) == [.disabledOnSite(Site(url: www))])

        try library.setEnabled(false, id: stored.id)
        #expect(try library.matches(url: shop).isEmpty)
        #expect(try library.which(url: shop, includingInactive: true).map(\.status) == [.disabled])

        // The script's text is untouched; another library object on the folder sees the switches.
        #expect(try folder.read(stored.file.lastPathComponent) == stored.script.text)
        let other = try ScriptLibrary(directory: folder.url)
        #expect(try other.script(id: stored.id).isEnabled == false)
        #expect(try other.script(id: stored.id).disabledSites == [Site(url: www)])
        let state = try folder.read(".pagescript-state.json")
        #expect(state.contains("\"disabledOn\" : [\n        \"www.example.com\"\n      ]"))

        try library.setEnabled(true, id: stored.id)
        try library.setDisabled(false, id: stored.id, on: Site(url: www))
        #expect(try library.matches(url: www).count == 1)
        #expect(try !folder.read(".pagescript-state.json").contains(stored.id.rawValue))
    }

    @Test func anUnreadableStateFileStopsAutomaticRunningUntilFixed() throws {
        let folder = try TemporaryDirectory()
        let library = try ScriptLibrary(directory: folder.url)
        let stored = try library.create(text: Self.tidy)
        try folder.write("{ not json", to: ".pagescript-state.json")
        let url = try PageURL("https://example.com/")
        let error = #expect(throws: LibraryError.self) { try library.matches(url: url) }
        guard case .unreadableState? = error else {
            Issue.record("expected unreadableState, got \(String(describing: error))")
            return
        }
        #expect(throws: LibraryError.self) { try library.setEnabled(false, id: stored.id) }
        #expect(try folder.read(".pagescript-state.json") == "{ not json")
        #expect(try library.problems().contains { $0.path.hasSuffix(".pagescript-state.json") })
        try FileManager.default.removeItem(at: folder.file(".pagescript-state.json"))
        #expect(try library.matches(url: url).map(\.id) == [stored.id])
    }

    @Test func whichExplainsWhatMatchedAndWhy() throws {
        let folder = try TemporaryDirectory()
        let library = try ScriptLibrary(directory: folder.url)
        let automatic = try library.create(text: Self.tidy)
        let onDemand = try library.create(text: "// ==UserScript==\n// @name Manual\n// @match https://example.com/*\n// @run-at context-menu\n// ==/UserScript==\n")
        let framesOnly = try library.create(text: "// ==UserScript==\n// @name Top\n// @include *://example.com/*\n// @run-at document-start\n// @noframes\n// ==/UserScript==\n")
        _ = try library.create(text: "// ==UserScript==\n// @name Elsewhere\n// @match *://example.org/*\n// @run-at document-end\n// ==/UserScript==\n")
        let url = try PageURL("https://example.com/page")

        // In @run-at order: document-start before document-idle, whatever the names.
        let running = try library.which(url: url)
        #expect(running.map(\.script.id) == [framesOnly.id, automatic.id])
        #expect(running.map(\.status) == [.runs(.documentStart), .runs(.documentIdle)])
        #expect(running[0].rule.text == "*://example.com/*")
        #expect(running[0].pattern.description == "https://example.com:443/*")

        let all = try library.which(url: url, isFrame: true, includingInactive: true)
        #expect(all.map(\.script.name) == ["Tidy", "Manual", "Top"])
        #expect(all.map(\.status) == [.runs(.documentIdle), .onDemandOnly, .notInFrames])
        #expect(all[1].script.id == onDemand.id)
    }

    @Test func findResolvesIDsPrefixesAndNames() throws {
        let folder = try TemporaryDirectory()
        let library = try ScriptLibrary(directory: folder.url)
        let first = try library.create(text: Self.tidy)
        _ = try library.create(text: Self.tidy)
        #expect(try library.find(first.id.rawValue).id == first.id)
        #expect(try library.find(String(first.id.rawValue.prefix(6))).id == first.id)
        #expect(throws: LibraryError.self) { try library.find("tidy") }
        #expect(throws: LibraryError.notFound("nothing")) { try library.find("nothing") }
    }

    @Test func savingThroughASymbolicLinkKeepsTheLink() throws {
        let folder = try TemporaryDirectory()
        let elsewhere = try TemporaryDirectory()
        let target = try elsewhere.write(Self.tidy, to: "real.user.js")
        try FileManager.default.createSymbolicLink(at: folder.file("linked.user.js"), withDestinationURL: target)
        let library = try ScriptLibrary(directory: folder.url)
        var stored = try library.find("linked")
        try stored.script.setValue("9", forKey: "version")
        _ = try library.save(stored)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder.file("linked.user.js").path(percentEncoded: false)) == target.path(percentEncoded: false))
        #expect(try elsewhere.read("real.user.js").contains("@version 9") || elsewhere.read("real.user.js").contains("@version      9"))
    }

    @Test func aDeadWritersLeftoverIsRemovedAndAFreshOneIsNot() throws {
        let folder = try TemporaryDirectory()
        let library = try ScriptLibrary(directory: folder.url)
        let stale = try folder.write("partial", to: ".tidy-abcdefgh.user.js.999999999.12345.tmp")
        let fresh = try folder.write("partial", to: ".other-abcdefgh.user.js.999999998.12345.tmp")
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: stale.path(percentEncoded: false))
        _ = try library.scripts()
        #expect(!FileManager.default.fileExists(atPath: stale.path(percentEncoded: false)))
        #expect(FileManager.default.fileExists(atPath: fresh.path(percentEncoded: false)))
    }
}
