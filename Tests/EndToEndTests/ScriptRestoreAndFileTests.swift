import Foundation
import Testing
import TestSupport

/// `scripts restore`, whole `.user.js` files given to `scripts new`, `-f -`, and switches that
/// say what they did: the library commands a user reaches for after a mistake.
struct ScriptRestoreAndFileTests {
    let library = FileManager.default.temporaryDirectory.appendingPathComponent("pagescript-restore-\(UUID().uuidString)").path

    private func pagescript(_ arguments: [String], input: String? = nil) throws -> PageScriptBinary.Outcome {
        try PageScriptBinary.run(arguments + ["--library", library], input: input)
    }

    @Test func aRemovedScriptComesBackByteForByte() throws {
        defer { try? FileManager.default.removeItem(atPath: library) }
        let created = try pagescript(["scripts", "new", "Tidy", "-e", "document.title // mine\r\n"])
        let id = created.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        let before = try pagescript(["scripts", "show", id, "--source"]).standardOutput
        #expect(try pagescript(["scripts", "rm", id]).status == 0)
        #expect(try pagescript(["scripts", "show", id]).status == 2)

        let listed = try pagescript(["scripts", "restore"])
        #expect(listed.status == 0)
        #expect(listed.standardOutput.hasPrefix("\(id)\tTidy\t"), "\(listed.standardOutput)")

        let restored = try pagescript(["scripts", "restore", "tidy"])
        #expect(restored.status == 0, "\(restored.standardError)")
        #expect(restored.standardOutput == "\(id)\n")
        #expect(try pagescript(["scripts", "show", id, "--source"]).standardOutput == before)
        #expect(try pagescript(["scripts", "restore"]).standardOutput.isEmpty)
    }

    @Test func restoringWhatIsNotInTheTrashSaysSo() throws {
        defer { try? FileManager.default.removeItem(atPath: library) }
        let missing = try pagescript(["scripts", "restore", "nothing"])
        #expect(missing.status == 2)
        #expect(missing.standardError.contains("nothing in the library's trash"), "\(missing.standardError)")
    }

    @Test func aWholeUserscriptFileIsTakenAsItIs() throws {
        defer { try? FileManager.default.removeItem(atPath: library) }
        let file = "// ==UserScript==\n// @name        From a file\n// @match       https://example.com/*\n// ==/UserScript==\n\ndocument.title\n"
        let created = try pagescript(["scripts", "new", "-f", "-"], input: file)
        #expect(created.status == 0, "\(created.standardError)")
        let id = created.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try pagescript(["scripts", "show", id, "--source"]).standardOutput == file)
        #expect(try pagescript(["scripts", "list"]).standardOutput.contains("From a file"))

        let conflicting = try pagescript(["scripts", "new", "X", "--match", "https://a.example/*", "-e", file])
        #expect(conflicting.status == 2)
        #expect(conflicting.standardError.contains("its own ==UserScript== block"), "\(conflicting.standardError)")
    }

    @Test func switchesSayWhatTheyDidNamingTheScript() throws {
        defer { try? FileManager.default.removeItem(atPath: library) }
        let id = try pagescript(["scripts", "new", "Dark mode", "--match", "https://example.com/*", "-e", "1"])
            .standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        let disabled = try pagescript(["scripts", "disable", id])
        #expect(disabled.status == 0)
        #expect(disabled.standardError.contains("disabled \(id) Dark mode"), "\(disabled.standardError)")
        let enabled = try pagescript(["scripts", "enable", "dark mode"])
        #expect(enabled.standardError.contains("enabled \(id) Dark mode"), "\(enabled.standardError)")
        let offOnSite = try pagescript(["scripts", "disable-for", id, "https://example.com/"])
        #expect(offOnSite.standardError.contains("disabled \(id) Dark mode on example.com"), "\(offOnSite.standardError)")
        let listed = try pagescript(["scripts", "list"]).standardOutput
        #expect(listed.contains("\tenabled, off on example.com\tautomatically at document-idle\t"), "\(listed)")
    }

    @Test func browserWithoutARemoteEndpointIsAUsageError() throws {
        let outcome = try PageScriptBinary.run(["run", "https://example.com/", "-e", "1", "--browser", "chrome"])
        #expect(outcome.status == 2)
        #expect(outcome.standardError.contains("--webdriver-url"), "\(outcome.standardError)")
    }
}
