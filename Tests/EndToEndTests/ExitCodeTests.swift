import Foundation
import Testing
import TestSupport

/// The same failure ends every command with the same exit code and message (README's table).
struct ExitCodeTests {
    @Test func aScriptThatDoesNotExistIsBadInputForEveryCommand() throws {
        let library = FileManager.default.temporaryDirectory.appendingPathComponent("pagescript-exit-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: library, withIntermediateDirectories: true)
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

    /// Reading a library the user named that does not exist says so, and creates nothing: a typo
    /// in --library must not look like a library without scripts.
    @Test func readingAMissingLibraryCreatesNothing() throws {
        let library = FileManager.default.temporaryDirectory.appendingPathComponent("pagescript-none-\(UUID().uuidString)/x").path
        defer { try? FileManager.default.removeItem(atPath: (library as NSString).deletingLastPathComponent) }
        for command in [["scripts", "list"], ["scripts", "which", "https://example.com/"], ["scripts", "show", "a"], ["scripts", "export", "/tmp/out"]] {
            let outcome = try PageScriptBinary.run(command + ["--library", library])
            #expect(outcome.status == 2, "\(command): \(outcome.standardError)")
            #expect(outcome.standardError.contains("there is no script library at \(library)"), "\(command): \(outcome.standardError)")
            #expect(!FileManager.default.fileExists(atPath: library), "\(command) created the library")
        }
    }

    /// A library folder inside a file is explained in the user's terms: which path is a file.
    @Test func aLibraryUnderAFileNamesTheFile() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("pagescript-exit-\(UUID().uuidString)").path
        try Data("not a folder".utf8).write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let outcome = try PageScriptBinary.run(["scripts", "new", "Name", "-e", "1", "--library", file + "/scripts"])
        #expect(outcome.status == 2)
        #expect(outcome.standardError.contains("\(file) is a file, not a folder"), "\(outcome.standardError)")
        #expect(!outcome.standardError.contains("mkdir"), "\(outcome.standardError)")
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
        for command in [[], ["run"], ["run", "https://example.com/", "-e", "1", "-f", "x.js"], ["match"], ["nonsense"]] {
            let outcome = try PageScriptBinary.run(command)
            #expect(outcome.status == 2, "\(command): \(outcome.standardError)")
            #expect(outcome.standardError.contains("usage") || outcome.standardError.contains("Usage"), "\(command): \(outcome.standardError)")
        }
    }

    /// Help and the version are what was asked for: printed on standard output, exit 0, never
    /// reported as a failure.
    @Test(arguments: [["--help"], ["run", "--help"], ["scripts", "list", "--help"], ["help", "run"], ["--version"]])
    func helpAndVersionExitZero(command: [String]) throws {
        let outcome = try PageScriptBinary.run(command)
        #expect(outcome.status == 0, "\(command): \(outcome.standardError)")
        #expect(!outcome.standardOutput.isEmpty)
        #expect(!outcome.standardError.contains("pagescript:"), "\(command): \(outcome.standardError)")
    }

    @Test func matchExitsOneWhenNoURLMatched() throws {
        let none = try PageScriptBinary.run(["match", "*://a.example/*", "https://b.example/"])
        #expect(none.status == 1)
        #expect(none.standardOutput == "no match\thttps://b.example/\n")
        let some = try PageScriptBinary.run(["match", "*://a.example/*", "https://b.example/", "https://a.example/x"])
        #expect(some.status == 0)
    }
}
