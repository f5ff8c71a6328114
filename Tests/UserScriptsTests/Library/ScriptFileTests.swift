import Foundation
import TestSupport
import Testing
@testable import UserScripts

/// A userscript file of the user's own, on real files: saved whole and atomically, never over a
/// change another program made, nor over a file that appeared where there was none.
struct ScriptFileTests {
    static let script = "// ==UserScript==\n// @name Tidy\n// @match https://example.com/*\n// ==/UserScript==\ntidy()\n"

    @Test func aSaveReplacesTheFileAndKeepsItsMode() throws {
        let folder = try TemporaryDirectory("file")
        let path = folder.path + "/tidy.user.js"
        try Self.script.write(toFile: path, atomically: false, encoding: .utf8)
        chmod(path, 0o640)
        var file = try ScriptFile.open(path)
        #expect(file.text == Self.script)
        try file.save(Self.script + "more()\n")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == Self.script + "more()\n")
        #expect((try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) == 0o640)
        try file.save(Self.script)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == Self.script, "a second save goes on from the first")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["tidy.user.js"], "no temporary left")
    }

    @Test func aChangeMadeByAnotherProgramIsNeverOverwritten() throws {
        let folder = try TemporaryDirectory("file")
        let path = folder.path + "/tidy.user.js"
        try Self.script.write(toFile: path, atomically: false, encoding: .utf8)
        var file = try ScriptFile.open(path)
        let theirs = Self.script + "theirs()\n"
        try theirs.write(toFile: path, atomically: false, encoding: .utf8)
        #expect(throws: LibraryError.changedOnDisk(path: path)) { try file.save(Self.script + "mine()\n") }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == theirs)
        try FileManager.default.removeItem(atPath: path)
        #expect(throws: LibraryError.missingOnDisk(path: path)) { try file.save(Self.script + "mine()\n") }
        #expect(!FileManager.default.fileExists(atPath: path), "a deleted file is not brought back behind the user's back")
    }

    @Test func aNewFileIsMadeByTheFirstSaveUnlessOneAppeared() throws {
        let folder = try TemporaryDirectory("file")
        let path = folder.path + "/new.user.js"
        var file = try ScriptFile.open(path)
        #expect(file.text.isEmpty)
        try file.save(Self.script)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == Self.script)

        let other = folder.path + "/other.user.js"
        var late = try ScriptFile.open(other)
        try "appeared()\n".write(toFile: other, atomically: false, encoding: .utf8)
        #expect(throws: LibraryError.changedOnDisk(path: other)) { try late.save(Self.script) }
        #expect(try String(contentsOfFile: other, encoding: .utf8) == "appeared()\n")
    }

    @Test func aRuleThatCannotBeReadSafelyIsRefusedUnlessTheFileHadIt() throws {
        let folder = try TemporaryDirectory("file")
        let path = folder.path + "/rules.user.js"
        try Self.script.write(toFile: path, atomically: false, encoding: .utf8)
        var file = try ScriptFile.open(path)
        let unsafe = Self.script.replacingOccurrences(of: "// @match https://example.com/*", with: "// @match https://example.com/*\n// @run-at whenever")
        #expect(throws: (any Error).self) { try file.save(unsafe) }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == Self.script)
    }

    @Test func textThatIsNotUTF8IsRefused() throws {
        let folder = try TemporaryDirectory("file")
        let path = folder.path + "/bytes.user.js"
        try Data([0x66, 0xFF, 0xFE]).write(to: URL(fileURLWithPath: path))
        #expect(throws: LibraryError.notUTF8(path: path)) { _ = try ScriptFile.open(path) }
    }
}
