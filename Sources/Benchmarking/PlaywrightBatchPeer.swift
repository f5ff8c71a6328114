import Engines
import Foundation

/// Playwright for Python running a batch: Playwright's async API with N pages open at once in one
/// browser, each worker taking URLs from a shared `asyncio.Queue` and, for each,
/// `await page.goto(url)` then `await page.evaluate(expression)`: what a Playwright user writes to
/// do what `pagescript batch -e EXPRESSION --jobs N` does.
///
/// The async API is Playwright's own answer to "several pages at once" (its sync API may not be
/// shared between threads, so threads would each need a Playwright and a browser of their own).
/// Each worker opens its page with `browser.new_page()`, which gives it a fresh context, as each
/// PageScript job has a session of its own. It runs the system Chromium through `executable_path`
/// with PageScript's arguments (see ``PlaywrightPeer``), on Chromium only. As with
/// ``SeleniumBatchPeer``, the time runs from the first page's `goto` to the last page's value,
/// so neither the browser's start nor opening the pages is counted.
///
/// ```swift
/// let peer = PlaywrightBatchPeer(playwright: try PlaywrightPeer.prepare(python: python, folder: folder) { _ in })
/// let run = try peer.run("document.title", engine: .chromium, urls: urls, jobs: 4, display: nil)
/// ```
public struct PlaywrightBatchPeer: BatchThroughputPeer {
    /// Playwright, set up.
    public let playwright: PlaywrightPeer

    /// Creates the peer on the Playwright the bench installed.
    public init(playwright: PlaywrightPeer) {
        self.playwright = playwright
    }

    public func name(jobs: Int) -> String {
        "Playwright \(playwright.version) (Python), \(jobs) \(jobs == 1 ? "page" : "pages") at once"
    }

    public func supports(_ engine: Engine) -> Bool {
        engine == .chromium
    }

    /// At least Playwright's throughput on the loopback pages: at most its time per page.
    public var aim: Double? { 1 }

    /// What the script is told, as one JSON argument (the pages come in a file of their own).
    private struct Configuration: Encodable {
        var browser: String
        var arguments: [String]
        var jobs: Int
        var expression: String
    }

    public func run(_ expression: String, engine: Engine, urls: [String], jobs: Int, display: String?) throws(BenchmarkError) -> BatchThroughputRun {
        guard supports(engine) else {
            throw .peerUnavailable(reason: "the Playwright batch peer runs on Chromium only")
        }
        let chromium = try PlaywrightPeer.chromium()
        let folder = URL(fileURLWithPath: playwright.script.path).deletingLastPathComponent().path
        return try BatchPeerScript.run(
            source: Self.script, path: folder + "/pagescript-playwright-batch.py", python: playwright.script.python,
            label: "Playwright chromium batch, \(jobs) pages at once", urls: urls,
            configuration: Configuration(browser: chromium.browser, arguments: chromium.arguments, jobs: jobs, expression: expression),
            environment: nil)
    }

    /// The peer: a Playwright user's async workers sharing one browser, plus the timing.
    static let script = #"""
        # Written by `pagescript bench`: Playwright running a batch, N pages at once in one browser.
        import asyncio
        import json
        import sys
        import time

        from playwright.async_api import async_playwright

        list_path, configuration, output_path = sys.argv[1], json.loads(sys.argv[2]), sys.argv[3]
        with open(list_path) as listing:
            urls = [line.strip() for line in listing if line.strip()]
        starts, ends, values = [], [], {}


        async def work(browser, pages):
            page = await browser.new_page()
            try:
                while True:
                    try:
                        url = pages.get_nowait()
                    except asyncio.QueueEmpty:
                        return
                    started = time.perf_counter()
                    await page.goto(url)
                    value = await page.evaluate(configuration["expression"])
                    ends.append(time.perf_counter())
                    starts.append(started)
                    values[url] = value
            finally:
                await page.close()


        async def main():
            pages = asyncio.Queue()
            for url in urls:
                pages.put_nowait(url)
            async with async_playwright() as playwright:
                browser = await playwright.chromium.launch(
                    executable_path=configuration["browser"], args=configuration["arguments"], headless=True)
                try:
                    await asyncio.gather(*(work(browser, pages) for _ in range(configuration["jobs"])))
                finally:
                    await browser.close()


        asyncio.run(main())
        with open(output_path, "w") as output:
            json.dump({"seconds": max(ends) - min(starts), "pages": len(ends), "values": json.dumps(values)}, output)

        """#
}
