import Engines
import Foundation
import PageRuntime

/// PageScript's run against the WebDriver floor on one engine.
public enum RunBenchmark {
    /// Rows 1 and 2 of the benchmark table for `engine`:
    /// a warm `run` of a trivial script against one bare Execute Script round trip through the
    /// driver (``BareExecuteScript``), and, as a detail, a cold run in this process (engine start, session, page,
    /// script, teardown) against the driver's own new-session time (`POST /session` on a running
    /// driver).
    public static func rows(engine: Engine, pageURL: String, repetitions: Int, coldRepetitions: Int) async throws -> [ComparisonRow] {
        let running = try await BrowserEngine.start(engine)
        let session = try await running.newSession(timeout: 30, scriptTimeout: 30)
        let page = PageSession(session: session, scriptTimeout: 30)
        let plain = try await BareExecuteScript.start(engine: engine, beside: session, pageURL: pageURL)
        _ = try await page.open(pageURL)
        // In alternation, so that both sides see the same machine (and, on Chromium, the same session).
        let (bare, warm) = try await Measurement.timeAlternately(
            ("bare Execute Script", "pagescript run (warm)"), repetitions: repetitions, warmup: repetitions,
            { try await plain.call() },
            { _ = try await page.run(script: "1") })
        await plain.stop()
        await page.close()
        let newSession = try await Measurement.time("driver new session", repetitions: coldRepetitions, warmup: 1) {
            let fresh = try await running.newSession(timeout: 30)
            await fresh.delete()
        }
        await running.stop()
        let cold = try await Measurement.time("pagescript run (cold)", repetitions: coldRepetitions, warmup: 1) {
            _ = try await PageRunner.withPage(on: .local(engine), url: pageURL, scriptTimeout: 30) { page, _ throws(PageRunner.Failure) in
                do throws(InjectionError) {
                    return try await page.run(script: "1").value
                } catch {
                    throw .injection(error)
                }
            }
        }
        return [
            ComparisonRow(title: "\(engine): warm run vs bare Execute Script", subject: warm, baseline: bare, aim: 1.1),
            // A detail: the session alone, without the driver's start, the page or the teardown
            // (the cold floor is PeerBenchmark's bare-protocol client).
            ComparisonRow(title: "\(engine): cold run in-process vs driver new session (detail)", subject: cold, baseline: newSession, aim: nil),
        ]
    }
}
