import Engines
import Foundation

/// Row 6 of the benchmark table: the peak memory of a `pagescript run` process that matches the
/// page against a 1,000-script library, against the Selenium for Python process of
/// ``PeerBenchmark`` (its cold run of the same page and script) as the peer, aiming at no more
/// than the peer's (issue 15).
///
/// Peak memory is each process's own high-water mark (see ``MeasuredProcess``); the driver and
/// browser, the same for both, are not counted. Two libraries (see ``BenchmarkFixture``): one in
/// which no script matches the page, so only the library's cost shows, and one in which one
/// script matches and runs.
public enum MemoryBenchmark {
    /// Measures both rows on `engine`.
    ///
    /// - Parameters:
    ///   - engine: WebKit, Chromium or Firefox.
    ///   - fixture: The page and the libraries.
    ///   - pagescript: The `pagescript` executable.
    ///   - repetitions: Processes measured per library, after one unmeasured.
    ///   - seleniumPeakMemory: The peer's peak memory; `nil` when the peer was skipped.
    public static func rows(
        engine: Engine, fixture: BenchmarkFixture, pagescript: String, repetitions: Int, seleniumPeakMemory: Measurement?
    ) throws -> [ComparisonRow] {
        let libraries = [("none match", fixture.libraryWithoutMatch), ("one matches", fixture.libraryWithOneMatch)]
        return try libraries.map { label, library in
            var samples: [Double] = []
            for repetition in 0...repetitions {
                let run = try MeasuredProcess.run(
                    executable: pagescript,
                    arguments: ["run", fixture.pageURL, "--library", library.path(percentEncoded: false), "--engine", engine.rawValue],
                    timeout: 120, label: "pagescript run --library")
                if repetition > 0, let peak = run.peakResidentBytes { samples.append(peak) }
            }
            let peer = seleniumPeakMemory.map { _ in " vs Selenium process" } ?? " (peer skipped)"
            return ComparisonRow(
                title: "\(engine): peak RSS, `pagescript run`, 1,000 scripts, \(label)\(peer)",
                subject: Measurement(name: "pagescript run peak memory", samples: samples, unit: .bytes),
                baseline: seleniumPeakMemory, aim: 1.0)
        }
    }
}
