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
}
