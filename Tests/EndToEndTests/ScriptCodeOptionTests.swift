import Foundation
import Testing
import TestSupport

/// `-e`, `-f` and `-` mean the same in `run`, `scripts new` and `scripts save-for`.
struct ScriptCodeOptionTests {
    let library = FileManager.default.temporaryDirectory.appendingPathComponent("pagescript-code-\(UUID().uuidString)").path

    @Test func everyCommandReadsTheCodeFromStandardInput() async throws {
        defer { try? FileManager.default.removeItem(atPath: library) }
        let created = try await PageScriptBinary.outcome(of: ["scripts", "new", "From input", "-", "--library", library], input: "document.title // new\n")
        #expect(created.status == 0, "\(created.standardError)")
        let shown = try await PageScriptBinary.outcome(of: ["scripts", "show", created.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines), "--source", "--library", library])
        #expect(shown.standardOutput.hasSuffix("document.title // new\n"), "\(shown.standardOutput)")

        let saved = try await PageScriptBinary.outcome(of: ["scripts", "save-for", "https://example.com/", "-", "--run-at", "document-end", "--library", library],
                                             input: "1 + 1 // for the site\n")
        #expect(saved.status == 0, "\(saved.standardError)")
        let site = try await PageScriptBinary.outcome(of: ["scripts", "show", saved.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines), "--source", "--library", library])
        #expect(site.standardOutput.contains("@run-at"))
        #expect(site.standardOutput.hasSuffix("1 + 1 // for the site\n"), "\(site.standardOutput)")
    }

    @Test func codeGivenTwiceIsAUsageErrorEverywhere() async throws {
        defer { try? FileManager.default.removeItem(atPath: library) }
        let commands: [[String]] = [
            ["run", "https://example.com/", "-e", "1", "-"],
            ["scripts", "new", "Twice", "-e", "1", "-f", "x.js"],
            ["scripts", "save-for", "https://example.com/", "-e", "1", "-f", "x.js"],
            ["scripts", "new", "--from-example", "word-count", "-e", "1"],
        ]
        for command in commands {
            let outcome = try await PageScriptBinary.outcome(of: command + ["--library", library], input: "2")
            #expect(outcome.status == 2, "\(command): \(outcome.standardError)")
        }
        let files = (try? FileManager.default.contentsOfDirectory(atPath: library)) ?? []
        #expect(!files.contains { $0.hasSuffix(".user.js") }, "a refused command created \(files)")
    }

    @Test func anUnreadableFileIsBadInputEverywhere() async throws {
        defer { try? FileManager.default.removeItem(atPath: library) }
        for command in [["run", "https://example.com/"], ["scripts", "new", "Missing"], ["scripts", "save-for", "https://example.com/"]] {
            let outcome = try await PageScriptBinary.outcome(of: command + ["-f", "/nonexistent/script.js", "--library", library])
            #expect(outcome.status == 2, "\(command): \(outcome.standardError)")
            #expect(outcome.standardError == "pagescript: cannot read the script file '/nonexistent/script.js': no such file\n", "\(command)")
        }
    }
}
