import Engines
import Foundation
import PageRuntime
import UserScripts

/// The GM API's cost on one engine: a warm userscript run with the API against a bare Execute
/// Script round trip, and a `GM_setValue` that reaches the disk against the same run without one.
public enum UserScriptBenchmark {
    /// A userscript that reads a value: the API is there, nothing goes back to PageScript.
    static let reading = """
        // ==UserScript==
        // @name Bench reader
        // @grant GM_getValue
        // ==/UserScript==
        GM_getValue("count", 0)
        """

    /// A userscript that writes a value: its change comes back in the reply and is written to
    /// the library (a flush of the file and of its folder) before the run returns.
    static let writing = """
        // ==UserScript==
        // @name Bench writer
        // @grant GM_getValue
        // @grant GM_setValue
        // ==/UserScript==
        GM_setValue("count", GM_getValue("count", 0) + 1)
        """

    /// The two rows for `engine`, measured on one warm session on `pageURL`, with values kept in
    /// `libraryFolder`. Each run prepares its script as `pagescript run --script` does (values
    /// read from the library, `GM_info` made).
    public static func rows(engine: Engine, pageURL: String, repetitions: Int, libraryFolder: URL) async throws -> [ComparisonRow] {
        let running = try await BrowserEngine.start(engine)
        let session = try await running.newSession(timeout: 30, scriptTimeout: 30)
        let page = PageSession(session: session, scriptTimeout: 30)
        let plain = try await BareExecuteScript.start(engine: engine, beside: session, pageURL: pageURL)
        let host = GMHost(libraryDirectory: libraryFolder)
        do {
            _ = try await page.open(pageURL)
            let reader = UserScript(text: reading)
            let writer = UserScript(text: writing)
            let (bare, withAPI) = try await Measurement.timeAlternately(
                ("bare Execute Script", "pagescript run with the GM API (warm)"), repetitions: repetitions, warmup: repetitions,
                { try await plain.call() },
                { _ = try await page.run(userScript: reader, id: "bench-reader", host: host) })
            let write = try await Measurement.time("GM_setValue round trip to disk", repetitions: repetitions) {
                _ = try await page.run(userScript: writer, id: "bench-writer", host: host)
            }
            await plain.stop()
            await page.close()
            await host.shutdown()
            await running.stop()
            return [
                ComparisonRow(title: "\(engine): warm run with the GM API vs bare Execute Script", subject: withAPI, baseline: bare, aim: 1.1),
                ComparisonRow(title: "\(engine): GM_setValue to disk vs the same run reading", subject: write, baseline: withAPI, aim: nil),
            ]
        } catch {
            await plain.stop()
            await page.close()
            await host.shutdown()
            await running.stop()
            throw error
        }
    }
}
