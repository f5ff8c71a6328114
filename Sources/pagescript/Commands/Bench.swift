import ArgumentParser
import Benchmarking
import Foundation
import TerminalUI
import WebDriver

/// `pagescript bench`: PageScript's cost against the WebDriver floor, as ratios.
struct Bench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure PageScript against the WebDriver floor and print one table of ratios.")

    @Option(name: .long, parsing: .upToNextOption, help: "Engines to measure (default: webkit chromium).")
    var engines: [Engine] = [.webkit, .chromium]

    @Option(name: .long, help: "Repetitions of each warm measurement.")
    var repetitions = 50

    @Option(name: .customLong("cold-repetitions"), help: "Repetitions of each cold measurement.")
    var coldRepetitions = 5

    func run() async throws {
        let signals = Interruption.install()
        defer {
            signals.cancel()
            Interruption.sweep()
        }
        let page = FileManager.default.temporaryDirectory.appendingPathComponent("pagescript-bench-\(getpid()).html")
        try "<!doctype html><title>Bench</title><p>bench</p>".write(to: page, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: page) }
        var rows: [ComparisonRow] = []
        for engine in engines {
            do {
                rows += try await RunBenchmark.rows(engine: engine, pageURL: page.absoluteString,
                                                    repetitions: repetitions, coldRepetitions: coldRepetitions)
            } catch {
                printError("pagescript bench: \(engine): \(TerminalSafeText.escaped("\(error)"))")
                throw ExitCode.engineFailed
            }
        }
        printOutput(ComparisonTable.render(rows))
    }
}
