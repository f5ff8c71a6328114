import Engines
import Foundation
import PageRuntime
import SystemSupport

/// Row 3 of the benchmark table: PageScript against the floor of the protocol and against the
/// tools a user would otherwise pick, running the same script on the same page with the same
/// driver, browser and browser arguments. Every ratio is PageScript / the other.
///
/// - Cold: a `pagescript run URL -e 1` process, timed from launch to exit, against
///   ``ProtocolFloor`` (the bare protocol, timed inside its process), a Selenium for Python
///   process (``SeleniumPeer``) and, on Chromium, a Playwright for Python process
///   (``PlaywrightPeer``; on Firefox its rows say why it cannot be measured:
///   ``PlaywrightPeer/firefoxUnavailable``): each starts what it needs, opens a session or page, loads the page,
///   runs `1` and stops. They alternate, one unmeasured run of each first. On WebKit the
///   Selenium process also needs an X display: the bench starts a fresh Xvfb for each of its runs
///   and counts that time too, as `pagescript run` and the floor start (and stop) their own.
/// - Warm: PageScript's run of `1` on a warm session (one Execute Async Script through
///   Action.js) against Selenium's `execute_script("return 1")` and Playwright's
///   `page.evaluate("1")` on warm sessions, timed inside Python.
public enum PeerBenchmark {
    /// What PageScript is compared with: the floor always, the peers when they could be set up.
    public struct Peers: Sendable {
        /// The bare-protocol client.
        public var floor: ProtocolFloor
        /// Selenium for Python; `nil` when skipped.
        public var selenium: SeleniumPeer?
        /// Playwright for Python, or why it could not be set up; `nil` when skipped.
        public var playwright: Result<PlaywrightPeer, BenchmarkError>?

        /// Creates the set of peers.
        public init(floor: ProtocolFloor, selenium: SeleniumPeer?, playwright: Result<PlaywrightPeer, BenchmarkError>?) {
            self.floor = floor
            self.selenium = selenium
            self.playwright = playwright
        }
    }

    /// The rows, and the Selenium process's peak memory from the cold runs (the peer of row 6).
    public struct Outcome: Sendable {
        /// The cold and warm rows.
        public let rows: [ComparisonRow]
        /// The peak resident memory of each cold Selenium process, in bytes; `nil` without Selenium.
        public let seleniumPeakMemory: Measurement?
        /// The floor's median duration of each phase of a cold run, in order, in seconds.
        public let floorPhases: [ProtocolFloor.Phase]
    }

    /// Measures the cold and warm rows on `engine`.
    ///
    /// - Parameters:
    ///   - engine: WebKit, Chromium or Firefox.
    ///   - pageURL: The page all run on.
    ///   - peers: The floor and the peers, set up.
    ///   - pagescript: The `pagescript` executable timed for the cold rows.
    ///   - repetitions: Round trips timed on each warm session.
    ///   - coldRepetitions: Processes timed for each side of the cold rows.
    public static func measure(
        engine: Engine, pageURL: String, peers: Peers, pagescript: String, repetitions: Int, coldRepetitions: Int
    ) async throws -> Outcome {
        let warm = try await pagescriptWarm(engine: engine, pageURL: pageURL, repetitions: repetitions)
        let xvfb = engine == .webkit ? ExecutableLocator.find("Xvfb") : nil
        var playwright: PlaywrightPeer?
        var playwrightProblem: String?
        if engine == .chromium, let outcome = peers.playwright {
            switch outcome {
            case let .success(peer): playwright = peer
            case let .failure(error): playwrightProblem = "\(error)"
            }
        }
        var seleniumWarm: Measurement?
        if let selenium = peers.selenium {
            let display = try xvfb.map { try XvfbDisplay.start(executable: $0) }
            defer { display?.stop() }
            seleniumWarm = try selenium.warm(engine: engine, pageURL: pageURL, script: "return 1", repetitions: repetitions, display: display?.name)
        }
        var playwrightWarm: Measurement?
        if let peer = playwright {
            do {
                playwrightWarm = try peer.warm(pageURL: pageURL, repetitions: repetitions)
            } catch {
                playwright = nil
                playwrightProblem = "\(error)"
            }
        }

        var pagescriptCold: [Double] = []
        var floorCold: [Double] = []
        var floorPhases: [[ProtocolFloor.Phase]] = []
        var seleniumCold: [Double] = []
        var seleniumMemory: [Double] = []
        var playwrightCold: [Double] = []
        for repetition in 0...coldRepetitions {
            // The first run of each loads programs and libraries from disk: not measured.
            let measured = repetition > 0
            let ours = try MeasuredProcess.run(
                executable: pagescript, arguments: ["run", pageURL, "-e", "1", "--engine", engine.rawValue],
                timeout: 120, label: "pagescript run")
            if measured { pagescriptCold.append(ours.elapsed) }
            let floor = try peers.floor.cold(engine: engine, pageURL: pageURL)
            if measured {
                floorCold.append(floor.elapsed)
                floorPhases.append(floor.phases)
            }
            if let selenium = peers.selenium {
                let start = DispatchTime.now().uptimeNanoseconds
                let display = try xvfb.map { try XvfbDisplay.start(executable: $0) }
                let theirs: MeasuredProcess
                do {
                    theirs = try selenium.cold(engine: engine, pageURL: pageURL, script: "return 1", display: display?.name)
                    display?.stop()
                } catch {
                    display?.stop()
                    throw error
                }
                if measured {
                    seleniumCold.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
                    if let peak = theirs.peakResidentBytes { seleniumMemory.append(peak) }
                }
            }
            if let peer = playwright {
                do {
                    let theirs = try peer.cold(pageURL: pageURL)
                    if measured { playwrightCold.append(theirs.elapsed) }
                } catch {
                    playwright = nil
                    playwrightProblem = "\(error)"
                    playwrightCold = []
                }
            }
        }

        let coldProcess = Measurement(name: "pagescript run (cold process)", samples: pagescriptCold)
        var rows = [
            ComparisonRow(title: "\(engine): cold `pagescript run` process vs bare-protocol floor (Python http.client)",
                          subject: coldProcess, baseline: Measurement(name: "protocol floor (cold)", samples: floorCold), aim: 1.2),
        ]
        if let selenium = peers.selenium, let seleniumWarm {
            let name = "Selenium \(selenium.version) (Python)"
            rows.append(ComparisonRow(title: "\(engine): cold `pagescript run` process vs \(name) process", subject: coldProcess,
                                      baseline: Measurement(name: "Selenium (cold process)", samples: seleniumCold), aim: 1))
            rows.append(ComparisonRow(title: "\(engine): warm run vs \(name) execute_script, warm",
                                      subject: warm, baseline: seleniumWarm, aim: 1))
        }
        if engine == .firefox, peers.selenium != nil {
            rows.append(ComparisonRow(title: "\(engine): cold `pagescript run` process vs Playwright (Python) process", subject: coldProcess,
                                      baseline: nil, aim: 1, note: PlaywrightPeer.firefoxUnavailable))
            rows.append(ComparisonRow(title: "\(engine): warm run vs Playwright (Python) page.evaluate, warm", subject: warm,
                                      baseline: nil, aim: 1, note: PlaywrightPeer.firefoxUnavailable))
        }
        if engine == .chromium, peers.playwright != nil {
            let version = (try? peers.playwright?.get())?.version
            let name = version.map { "Playwright \($0) (Python)" } ?? "Playwright (Python)"
            let cold = playwrightProblem == nil ? Measurement(name: "Playwright (cold process)", samples: playwrightCold) : nil
            rows.append(ComparisonRow(title: "\(engine): cold `pagescript run` process vs \(name) process", subject: coldProcess,
                                      baseline: cold, aim: 1, note: playwrightProblem.map { "Playwright unavailable: \($0)" }))
            rows.append(ComparisonRow(title: "\(engine): warm run vs \(name) page.evaluate, warm", subject: warm,
                                      baseline: playwrightProblem == nil ? playwrightWarm : nil, aim: 1,
                                      note: playwrightProblem.map { "Playwright unavailable: \($0)" }))
        }
        return Outcome(
            rows: rows,
            seleniumPeakMemory: peers.selenium == nil ? nil : Measurement(name: "Selenium process peak memory", samples: seleniumMemory, unit: .bytes),
            floorPhases: medianPhases(floorPhases))
    }

    /// PageScript's warm run of `1`, on a session of its own.
    private static func pagescriptWarm(engine: Engine, pageURL: String, repetitions: Int) async throws -> Measurement {
        let running = try await BrowserEngine.start(engine)
        do {
            let session = try await running.newSession(timeout: 30, scriptTimeout: 30)
            let page = PageSession(session: session, scriptTimeout: 30)
            _ = try await page.open(pageURL)
            let warm = try await Measurement.time("pagescript run (warm)", repetitions: repetitions) {
                _ = try await page.run(script: "1")
            }
            await page.close()
            await running.stop()
            return warm
        } catch {
            await running.stop()
            throw error
        }
    }

    /// The median of each phase over runs, by name, in the first run's order.
    static func medianPhases(_ runs: [[ProtocolFloor.Phase]]) -> [ProtocolFloor.Phase] {
        guard let first = runs.first else { return [] }
        return first.map { phase in
            let samples = runs.compactMap { $0.first { $0.name == phase.name }?.seconds }
            return ProtocolFloor.Phase(name: phase.name, seconds: Measurement(name: phase.name, samples: samples).median)
        }
    }
}
