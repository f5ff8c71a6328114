import Foundation
import Testing
import TestSupport

/// The same failure ends every command with the same exit code and message (README's table).
struct ExitCodeTests {
    @Test func aScriptThatDoesNotExistIsBadInputForEveryCommand() throws {
        let library = FileManager.default.temporaryDirectory.appendingPathComponent("pagescript-exit-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: library) }
        let commands: [[String]] = [
            ["scripts", "show", "nothing"], ["scripts", "rm", "nothing"], ["scripts", "rename", "nothing", "New name"],
            ["scripts", "enable", "nothing"], ["scripts", "disable", "nothing"],
            ["scripts", "disable-for", "nothing", "https://example.com/"], ["run", "https://example.com/", "--script", "nothing"],
        ]
        for command in commands {
            let outcome = try PageScriptBinary.run(command + ["--library", library])
            #expect(outcome.status == 2, "\(command): \(outcome.standardError)")
            #expect(outcome.standardError == "pagescript: no script is called or has the ID `nothing`\n", "\(command)")
        }
    }

    @Test func aLibraryThatIsAFileIsBadInputForEveryCommand() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("pagescript-exit-\(UUID().uuidString)").path
        try Data("not a folder".utf8).write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let commands: [[String]] = [
            ["scripts", "list"], ["scripts", "new", "Name", "-e", "1"], ["scripts", "rename", "a", "b"],
            ["scripts", "save-for", "https://example.com/", "-e", "1"], ["scripts", "which", "https://example.com/"],
        ]
        for command in commands {
            let outcome = try PageScriptBinary.run(command + ["--library", file])
            #expect(outcome.status == 2, "\(command): \(outcome.standardError)")
            #expect(outcome.standardError.hasPrefix("pagescript: "), "\(command): \(outcome.standardError)")
        }
    }

    @Test func usageErrorsExitTwo() throws {
        for command in [["run"], ["run", "https://example.com/", "-e", "1", "-f", "x.js"], ["match"], ["nonsense"]] {
            let outcome = try PageScriptBinary.run(command)
            #expect(outcome.status == 2, "\(command): \(outcome.standardError)")
        }
    }
}
