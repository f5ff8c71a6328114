import Foundation
import Testing
import TestSupport

/// `pagescript bench --sections` and `--engines`: the help names every group, the engines measured
/// by default and how to add Firefox, and a name that is not a group, or Safari, which the bench
/// does not measure, is refused before anything is measured or installed.
struct BenchCommandTests {
    static let sectionNames = ["matching", "keystrokes", "runs", "peers", "memory", "batch"]

    @Test func helpListsEverySection() async throws {
        let outcome = try await PageScriptBinary.outcome(of: ["bench", "--help"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let text = outcome.standardOutput.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(text.contains("--sections <section> ..."), "\(text)")
        for name in Self.sectionNames {
            #expect(text.contains(name), "\(name) is missing from: \(text)")
        }
    }

    @Test func anUnknownSectionIsRefusedWithTheNamesThatExist() async throws {
        let outcome = try await PageScriptBinary.outcome(of: ["bench", "--sections", "batch", "throughput", "--skip-peer"])
        #expect(outcome.status == 2, "\(outcome.standardError)")
        #expect(outcome.standardError.contains("The value 'throughput' is invalid for '--sections <section>'"), "\(outcome.standardError)")
        for name in Self.sectionNames {
            #expect(outcome.standardError.contains("- \(name)\n"), "\(name) is missing from: \(outcome.standardError)")
        }
    }

    @Test func helpOffersFirefoxBesideTheDefaultEngines() async throws {
        let outcome = try await PageScriptBinary.outcome(of: ["bench", "--help"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let text = outcome.standardOutput.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(text.contains("(values: webkit, chromium, firefox, safari; default: webkit, chromium)"), "\(text)")
        #expect(text.contains("--engines firefox"), "\(text)")
    }

    @Test func safariIsRefusedWithTheEnginesTheBenchMeasures() async throws {
        let outcome = try await PageScriptBinary.outcome(of: ["bench", "--engines", "firefox", "safari", "--skip-peer"])
        #expect(outcome.status == 2, "\(outcome.standardError)")
        #expect(outcome.standardError.contains("bench measures webkit, chromium and firefox only"), "\(outcome.standardError)")
    }
}
