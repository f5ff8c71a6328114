import Browsing
import Engines
import Foundation
import PageRuntime
import SystemSupport
import UserScripts
import WebDriver

/// The `browse` rows: how soon after a page's load event `pagescript browse` runs the first line
/// of a matching `document-idle` script, on pages that navigate by themselves, as a user's clicks do.
///
/// - Against the protocol's floor: a bare client on the same engine that keeps an Execute Async
///   Script waiting in every page (sent again as soon as a navigation ends the last one), whose
///   line runs as soon as the driver lets any script run after the load (the driver's own delay
///   after a navigation; no aim).
/// - On WebKit, against issue 13's budget of 50 ms.
///
/// The follower runs in this process, as `pagescript browse` runs it, on a ``LoopbackServer`` whose
/// pages go to the next one 300 ms after their load event; each sample is `performance.now()`
/// minus the navigation's `loadEventEnd`, read by the page itself, so no clock is shared.
public enum BrowseLatencyBenchmark {
    /// Issue 13's aim for WebKit.
    public static let webKitBudget = 0.05

    /// A site of pages `/page/<n>`, each going to `/page/<n + 1>` 300 ms after its load event.
    public static func startSite() throws -> LoopbackServer {
        try LoopbackServer { request in
            let path = request.target
            let number = Int(path.split(separator: "/").last ?? "") ?? 0
            return .page("""
                <!doctype html><title>Browse bench \(number)</title><p>page \(number)</p>
                <script>addEventListener('load', function () { setTimeout(function () { location.href = '/page/\(number + 1)'; }, 300); });</script>
                """)
        }
    }

    /// The userscript measured: its first line reads how long ago the page's load event ended.
    static func latencyScript(matching site: LoopbackServer) -> String {
        """
        // ==UserScript==
        // @name        Load to first line
        // @match       \(site.url("/").dropLast())/*
        // @run-at      document-idle
        // ==/UserScript==
        (performance.now() - performance.getEntriesByType('navigation')[0].loadEventEnd) / 1000
        """
    }

    /// The bare client's script: in a document it has not seen, it answers once the load event has
    /// ended; in one it has, it waits for the page to be left (or 200 ms).
    static let bareProbe = """
        var done = arguments[arguments.length - 1], mark = '__browseBenchSeen';
        function report() {
          var entry = performance.getEntriesByType('navigation')[0];
          window[mark] = true;
          done([true, (performance.now() - entry.loadEventEnd) / 1000]);
        }
        if (!window[mark]) {
          var entry = performance.getEntriesByType('navigation')[0];
          if (document.readyState === 'complete' && entry && entry.loadEventEnd > 0) { report(); }
          else { addEventListener('load', function () { setTimeout(report, 0); }); }
          return;
        }
        addEventListener('pagehide', function () { done([false, 0]); });
        setTimeout(function () { done([false, 0]); }, 200);
        """

    /// The rows for `engine`: `navigations` pages each, the first (a new browser's) left out.
    ///
    /// - Parameters:
    ///   - engine: WebKit, Chromium or Firefox.
    ///   - site: The pages (see ``startSite()``).
    ///   - navigations: Pages timed on each side.
    ///   - libraryFolder: An empty folder for the library holding the measured script.
    public static func rows(engine: Engine, site: LoopbackServer, navigations: Int, libraryFolder: URL) async throws -> [ComparisonRow] {
        let floor = Measurement(name: "bare client's first line", samples: try await bareSamples(engine: engine, site: site, count: navigations))
        let browse = Measurement(name: "browse's first document-idle line",
                                 samples: try await browseSamples(engine: engine, site: site, count: navigations, libraryFolder: libraryFolder))
        var rows = [ComparisonRow(title: "\(engine): browse, load event to a document-idle script's first line vs a bare client's",
                                  subject: browse, baseline: floor, aim: nil)]
        if engine == .webkit {
            rows.append(.budget(title: "webkit: browse, load event to a document-idle script's first line (vs budget 50 ms)",
                                subject: browse, budget: webKitBudget))
        }
        return rows
    }

    /// What `browse` measures: the follower on a page of its own, until `count` pages after the
    /// first have reported.
    static func browseSamples(engine: Engine, site: LoopbackServer, count: Int, libraryFolder: URL) async throws -> [Double] {
        let library = try ScriptLibrary(directory: libraryFolder)
        _ = try library.create(text: latencyScript(matching: site))
        let running = try await BrowserEngine.start(engine)
        let session: WebDriverSession
        do {
            session = try await running.newSession(timeout: 30, scriptTimeout: 30)
        } catch {
            await running.stop()
            throw error
        }
        let page = PageSession(session: session, scriptTimeout: 30)
        let samples = SampleCollector()
        let follower = BrowserFollower(page: page, library: library, opening: site.url("/page/0"), usingTheDesktop: false)
        _ = await follower.follow(isStopped: { samples.count > count }) { event in
            guard case let .ran(_, results) = event else { return }
            for entry in results {
                if case let .success(result) = entry.outcome, let seconds = result.value.flatMap(seconds(in:)) { samples.add(seconds) }
            }
        }
        await page.close()
        await running.stop()
        return Array(samples.values.dropFirst().prefix(count))
    }

    /// What the protocol allows: the bare client's probe, sent again at once after every reply.
    static func bareSamples(engine: Engine, site: LoopbackServer, count: Int) async throws -> [Double] {
        let running = try await BrowserEngine.start(engine)
        do {
            let session = try await running.newSession(timeout: 30, scriptTimeout: 30)
            try await session.navigate(to: site.url("/page/0"), timeout: 30)
            var samples: [Double] = []
            var failures = 0
            while samples.count <= count {
                do {
                    let reply = try await session.executeAsyncScript(bareProbe, arguments: [], timeout: 10)
                    if case let .array(fields) = reply, fields.count == 2, fields[0] == .bool(true), let seconds = seconds(in: fields[1]) {
                        samples.append(seconds)
                    }
                } catch {
                    // Chromium fails a call whose document is torn down by a navigation: ask again.
                    failures += 1
                    if failures > count * 10 { throw error }
                }
            }
            await session.delete()
            await running.stop()
            return Array(samples.dropFirst())
        } catch {
            await running.stop()
            throw error
        }
    }
}

/// A number the page sent, whichever way the driver encoded it.
private func seconds(in value: JSONValue) -> Double? {
    switch value {
    case let .number(number): number
    case let .integer(number): Double(number)
    default: nil
    }
}

/// The follower's reports arrive on its own task; the stop condition reads them from it too.
private final class SampleCollector: @unchecked Sendable {
    // Guards `values`, the only mutable state, which makes @unchecked Sendable sound.
    private let lock = NSLock()
    private var collected: [Double] = []

    func add(_ value: Double) {
        lock.withLock { collected.append(value) }
    }

    var values: [Double] {
        lock.withLock { collected }
    }

    var count: Int {
        lock.withLock { collected.count }
    }
}
