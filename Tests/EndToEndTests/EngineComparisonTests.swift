import Foundation
import SystemSupport
import TestSupport
import Testing

/// `run --engine all` and `--engine webkit,chromium`: the same script on every engine installed
/// here, at once. Where the engines differ (`navigator.vendor`) the difference is marked, in text
/// and in `--json`; where they agree one line says so; the exit status is the worst of the
/// engines'; Safari, which is not on Linux, is skipped and named.
@Suite(.serialized)
struct EngineComparisonTests {
    let server: LoopbackServer

    init() throws {
        server = try LoopbackServer(pages: ["/": "<!doctype html><title>Hello</title><p>hi</p>"])
    }

    func run(_ arguments: [String]) async throws -> PageScriptBinary.Outcome {
        let marker = ProcessProbe.newMarker()
        let outcome = try await PageScriptBinary.outcome(of: ["run", server.url()] + arguments, environment: [marker.name: marker.value])
        let leftovers = ProcessProbe.processes(withEnvironment: marker.name, value: marker.value)
        #expect(leftovers.isEmpty, "still running after pagescript run \(arguments): \(leftovers)")
        return outcome
    }

    @Test func allMarksTheValueTheEnginesDifferOnAndNamesWhatWasSkipped() async throws {
        let outcome = try await run(["-e", "console.log('same here'); navigator.vendor", "--engine", "all"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let rows = outcome.standardOutput.split(separator: "\n").map(String.init)
        #expect(rows.first?.contains("webkit") == true && rows.first?.contains("chromium") == true, "\(rows)")
        let value = try #require(rows.first { $0.contains("value") }, "\(rows)")
        #expect(value.hasPrefix("≠ value "), "\(value)")
        #expect(value.contains("\"Apple Computer, Inc.\"") && value.contains("\"Google Inc.\""), "\(value)")
        let console = try #require(rows.first { $0.contains("console 1") }, "\(rows)")
        #expect(console.hasPrefix("  console 1 "), "\(console)")
        #expect(console.contains("console.log: same here"), "\(console)")
        #expect(outcome.standardError.contains("skipped (not installed): ") && outcome.standardError.contains("safari"), "\(outcome.standardError)")
        #expect(!outcome.standardError.contains("the same on"), "\(outcome.standardError)")
    }

    @Test func identicalOutcomesAreSaidInOneLine() async throws {
        let outcome = try await run(["-e", "document.title + '!'", "--engine", "webkit,chromium"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardOutput == "\"Hello!\"\n")
        let same = outcome.standardError.split(separator: "\n").filter { $0.contains("the same on") }
        #expect(same == ["the same on webkit, chromium: value, console and error"], "\(outcome.standardError)")
    }

    @Test func jsonHasOneObjectPerEngineAndTheDifferences() async throws {
        let outcome = try await run(["-e", "navigator.vendor", "--engine", "chromium,webkit", "--json"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any])
        let engines = try #require(object["engines"] as? [String: [String: Any]])
        #expect(engines["webkit"]?["value"] as? String == "Apple Computer, Inc.")
        #expect(engines["chromium"]?["value"] as? String == "Google Inc.")
        #expect(engines["webkit"]?["title"] as? String == "Hello")
        #expect(object["differences"] as? [String] == ["value"])
        #expect(object["skipped"] as? [String] == [])
    }

    @Test func theExitStatusIsTheWorstOfTheEngines() async throws {
        let outcome = try await run(["-e", "if (navigator.vendor.startsWith('Google')) { throw new TypeError('only here'); } 1", "--engine", "all"])
        #expect(outcome.status == 1, "\(outcome.standardOutput)\(outcome.standardError)")
        let error = try #require(outcome.standardOutput.split(separator: "\n").first { $0.contains("error") }, "\(outcome.standardOutput)")
        #expect(error.hasPrefix("≠") && error.contains("TypeError: only here (line 1, column"), "\(error)")
    }

    @Test(arguments: [["run", "about:blank", "-e", "1", "--engine", "webkit,nosuch"], ["browse", "--engine", "all"],
                      ["run", "about:blank", "-e", "1", "--engine", "all", "--timing"]])
    func whatCannotBeComparedIsRefusedAsUsage(arguments: [String]) async throws {
        let outcome = try await PageScriptBinary.outcome(of: arguments)
        #expect(outcome.status == 2, "\(outcome.standardError)")
    }
}
