import Foundation
import Testing
import TestSupport

/// Every command's help: real placeholders and each default said once (ArgumentParser adds
/// `(default: ...)` itself; a help text that also says it reads twice).
struct HelpTextTests {
    static let commands: [[String]] = [
        ["run"], ["edit"], ["browse"], ["batch"], ["bench"], ["match"], ["engines"], ["examples"],
        ["scripts", "new"], ["scripts", "save-for"], ["scripts", "list"], ["scripts", "import"], ["scripts", "update"],
        ["scripts", "values"], ["scripts", "restore"], ["scripts", "which"], ["scripts", "show"],
    ]

    @Test(arguments: commands)
    func helpSaysEachDefaultOnceWithRealPlaceholders(command: [String]) async throws {
        let outcome = try await PageScriptBinary.outcome(of: command + ["--help"])
        #expect(outcome.status == 0, "\(command): \(outcome.standardError)")
        let text = outcome.standardOutput.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(!text.contains("<standard-input-marker>"), "\(command)")
        #expect(!text.contains("<reference>"), "\(command)")
        // Said by the text and again by ArgumentParser: "(default 30). (default: 30.0)".
        let doubled = try Regex(#"\(default[^)]*\)\.? \(default:"#)
        #expect(text.firstMatch(of: doubled) == nil, "\(command): \(text)")
        let doubledValues = try Regex(#"\(default\)[^(]*\(values: [^)]*default:"#)
        #expect(text.firstMatch(of: doubledValues) == nil, "\(command): \(text)")
    }

    /// A command's help lists only what it takes: batch refuses a visible browser, a kept profile
    /// and the user's own browser, so its help leaves those options out (and still says why when
    /// given); run, edit and browse list them.
    @Test func batchListsNoWindowOptionsAndRunDoes() async throws {
        let batch = try await PageScriptBinary.outcome(of: ["batch", "--help"])
        for option in ["--headed", "--profile", "--attach"] {
            #expect(!batch.standardOutput.contains(option), "batch --help lists \(option)")
        }
        #expect(!batch.standardOutput.contains("with --attach"))
        for command in ["run", "edit", "browse"] {
            let help = try await PageScriptBinary.outcome(of: [command, "--help"])
            #expect(help.standardOutput.contains("--profile") && help.standardOutput.contains("--attach"), "\(command)")
        }
        let headed = try await PageScriptBinary.outcome(of: ["batch", "-", "-e", "1", "--engine", "chromium", "--profile", "/tmp/p"], input: "http://127.0.0.1:9/\n")
        #expect(headed.status == 2, "\(headed.standardError)")
        #expect(headed.standardError.contains("--headed and --profile are for run, edit and browse"), "\(headed.standardError)")
    }

    /// Every command names itself. Without a `commandName`, ArgumentParser derives the name from
    /// the type's through `String(describing:)`, for every command, on every start: 17 million of
    /// the 319 million instructions a cold `pagescript run URL -e 1` executed (valgrind), most of
    /// them in the runtime's demangler.
    @Test func everyCommandNamesItself() throws {
        let folder = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appending(path: "Sources/pagescript")
        let files = (FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?.allObjects ?? [])
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        var configurations = 0
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            let all = text.ranges(of: "CommandConfiguration(").count
            configurations += all
            #expect(text.matches(of: /CommandConfiguration\(\s*commandName:/).count == all,
                    "\(file.lastPathComponent): a CommandConfiguration whose first argument is not its commandName")
        }
        #expect(configurations >= Self.commands.count)
    }
}
