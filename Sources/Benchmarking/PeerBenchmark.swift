import Foundation
import Injection
import SystemSupport
import WebDriver

/// Row 3 of the benchmark table: PageScript against the tool a user would otherwise pick,
/// Selenium for Python (``SeleniumPeer``), running the same script on the same page with the
/// same driver, browser and browser arguments. The ratio is PageScript / Selenium.
///
/// - Cold: a `pagescript run URL -e 1` process against a Python process that starts the driver,
///   opens a session, loads the page, runs `return 1` and quits; both timed from launch to exit,
///   alternating, one unmeasured run of each first. On WebKit the Selenium process also needs an
///   X display: the bench starts a fresh Xvfb for each of its runs and counts that time too, as
///   `pagescript run` starts (and stops) its own.
/// - Warm: PageScript's run of `1` on a warm session (one Execute Async Script through
///   Action.js) against Selenium's `execute_script("return 1")` on a warm session, timed inside
///   the Python process.
public enum PeerBenchmark {
    /// The rows, and the Selenium process's peak memory from the cold runs (the peer of row 6).
    public struct Outcome: Sendable {
        /// The cold and warm rows.
        public let rows: [ComparisonRow]
        /// The peak resident memory of each cold Selenium process, in bytes.
        public let seleniumPeakMemory: Measurement
    }

    /// Measures both rows on `engine`.
    ///
    /// - Parameters:
    ///   - engine: WebKit or Chromium.
    ///   - pageURL: The page both run on.
    ///   - peer: Selenium, set up.
    ///   - pagescript: The `pagescript` executable timed for the cold row.
    ///   - repetitions: Round trips timed on each warm session.
    ///   - coldRepetitions: Processes timed for each side of the cold row.
    public static func measure(
        engine: Engine, pageURL: String, peer: SeleniumPeer, pagescript: String, repetitions: Int, coldRepetitions: Int
    ) async throws -> Outcome {
        let running = try await BrowserEngine.start(engine)
        let warm: Measurement
        do {
            let session = try await running.newSession(timeout: 30, scriptTimeout: 30)
            let page = PageSession(session: session, scriptTimeout: 30)
            _ = try await page.open(pageURL)
            warm = try await Measurement.time("pagescript run (warm)", repetitions: repetitions) {
                _ = try await page.run(script: "1")
            }
            await page.close()
            await running.stop()
        } catch {
            await running.stop()
            throw error
        }
        let xvfb = engine == .webkit ? ExecutableLocator.find("Xvfb") : nil
        let seleniumWarm: Measurement
        do {
            let display = try xvfb.map { try XvfbDisplay.start(executable: $0) }
            defer { display?.stop() }
            seleniumWarm = try peer.warm(engine: engine, pageURL: pageURL, script: "return 1", repetitions: repetitions, display: display?.name)
        }

        var pagescriptCold: [Double] = []
        var seleniumCold: [Double] = []
        var seleniumMemory: [Double] = []
        for repetition in 0...coldRepetitions {
            let ours = try MeasuredProcess.run(
                executable: pagescript, arguments: ["run", pageURL, "-e", "1", "--engine", engine.rawValue],
                timeout: 120, label: "pagescript run")
            let start = DispatchTime.now().uptimeNanoseconds
            let display = try xvfb.map { try XvfbDisplay.start(executable: $0) }
            let theirs: MeasuredProcess
            do {
                theirs = try peer.cold(engine: engine, pageURL: pageURL, script: "return 1", display: display?.name)
                display?.stop()
            } catch {
                display?.stop()
                throw error
            }
            let seleniumElapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            // The first run of each loads programs and libraries from disk: not measured.
            guard repetition > 0 else { continue }
            pagescriptCold.append(ours.elapsed)
            seleniumCold.append(seleniumElapsed)
            if let peak = theirs.peakResidentBytes { seleniumMemory.append(peak) }
        }
        let selenium = "Selenium \(peer.version) (Python)"
        return Outcome(
            rows: [
                ComparisonRow(title: "\(engine): cold `pagescript run` process vs \(selenium) process",
                              subject: Measurement(name: "pagescript run (cold process)", samples: pagescriptCold),
                              baseline: Measurement(name: "Selenium (cold process)", samples: seleniumCold), aim: nil),
                ComparisonRow(title: "\(engine): warm run vs \(selenium) execute_script, warm",
                              subject: warm, baseline: seleniumWarm, aim: nil),
            ],
            seleniumPeakMemory: Measurement(name: "Selenium process peak memory", samples: seleniumMemory, unit: .bytes))
    }
}
