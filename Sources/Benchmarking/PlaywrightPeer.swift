import Engines
import Foundation
import SystemSupport

/// Playwright for Python, the second tool a user would otherwise pick, installed from PyPI into
/// the bench's virtual environment beside Selenium and driving the system Chromium through
/// `executable_path`: no browser is downloaded.
///
/// Playwright talks to Chromium over its DevTools protocol (a pipe), not WebDriver, and gives
/// the browser a throwaway profile of its own, as PageScript does. It is measured on Chromium
/// only (its WebKit is a build of Playwright's own, which it would download); its Firefox rows
/// say why they have no baseline (``firefoxUnavailable``).
///
/// ```swift
/// let peer = try PlaywrightPeer.prepare(python: selenium.python, folder: folder) { print($0) }
/// let run = try peer.cold(pageURL: fixture.pageURL)
/// run.elapsed
/// ```
public struct PlaywrightPeer: Sendable {
    /// Why Firefox's rows have no Playwright baseline, for their note: Playwright drives only a
    /// Firefox patched for its own protocol, downloaded from Playwright's servers, which are not a
    /// package registry; a stock Firefox such as Debian's does not speak that protocol.
    public static let firefoxUnavailable = "Playwright unavailable: its Firefox is a patched build downloaded from Playwright's CDN, "
        + "not a package registry, and it cannot drive Debian's firefox-esr"

    /// The installed Playwright's version.
    public let version: String
    /// The one-page peer script, in the folder the batch peer's script goes beside it.
    let script: PythonScript

    /// Installs Playwright into the virtual environment of `python` unless it is there, and
    /// writes the peer script into `folder`.
    ///
    /// - Parameters:
    ///   - python: The virtual environment's Python (Selenium's).
    ///   - folder: Where the peer script goes.
    ///   - progress: Told what is being done, for the user.
    /// - Throws: ``BenchmarkError/peerUnavailable(reason:)`` when Playwright cannot be installed
    ///   (no PyPI, no wheel for this machine).
    public static func prepare(python: String, folder: URL, progress: (String) -> Void) throws(BenchmarkError) -> PlaywrightPeer {
        if (try? MeasuredProcess.run(executable: python, arguments: ["-c", "import playwright"], timeout: 60, label: "python")) == nil {
            progress("installing Playwright from PyPI (pip install playwright; no browser is downloaded)")
            do {
                _ = try MeasuredProcess.run(
                    executable: python, arguments: ["-m", "pip", "install", "--disable-pip-version-check", "--quiet", "playwright"],
                    timeout: 600, label: "pip install playwright")
            } catch {
                throw .peerUnavailable(reason: "pip install playwright: \(error)")
            }
        }
        let version: String
        do {
            version = try MeasuredProcess.run(
                executable: python, arguments: ["-c", "from importlib.metadata import version; print(version('playwright'))"],
                timeout: 60, label: "python"
            ).output.trimmingCharacters(in: .whitespacesAndNewlines)
        } catch {
            throw .peerUnavailable(reason: "\(error)")
        }
        let path = folder.appendingPathComponent("pagescript-playwright.py").path(percentEncoded: false)
        return PlaywrightPeer(version: version, script: try PythonScript.write(source, to: path, python: python, label: "Playwright"))
    }

    /// One cold run in a fresh Python process: launch Chromium, open a page, load `pageURL`,
    /// `page.evaluate("1")`, close.
    ///
    /// - Returns: The process, timed from launch to exit.
    public func cold(pageURL: String) throws(BenchmarkError) -> MeasuredProcess {
        try run(mode: "cold", pageURL: pageURL, repetitions: 0).run
    }

    /// Playwright's `page.evaluate("1")` round trips on a warm page, timed inside Python after
    /// three unmeasured ones.
    ///
    /// - Parameters:
    ///   - pageURL: The page.
    ///   - repetitions: How many round trips are timed.
    public func warm(pageURL: String, repetitions: Int) throws(BenchmarkError) -> Measurement {
        let reply = try run(mode: "warm", pageURL: pageURL, repetitions: repetitions).reply
        guard let samples = reply.samples, samples.count == repetitions else {
            throw .processFailed(command: "Playwright warm run", status: "no samples", output: "")
        }
        return Measurement(name: "Playwright page.evaluate (warm)", samples: samples)
    }

    private struct Configuration: Encodable {
        var browser: String
        var arguments: [String]
        var url: String
        var script: String
        var repetitions: Int
    }

    private struct Reply: Decodable {
        var value: Int?
        var samples: [Double]?
    }

    private func run(mode: String, pageURL: String, repetitions: Int) throws(BenchmarkError) -> (run: MeasuredProcess, reply: Reply) {
        let chromium = try Self.chromium()
        let configuration = Configuration(
            browser: chromium.browser, arguments: chromium.arguments, url: pageURL, script: "1", repetitions: repetitions)
        return try script.run(Reply.self, arguments: [mode], configuration: configuration, environment: nil,
                              timeout: mode == "cold" ? 120 : 600)
    }

    /// The system Chromium and PageScript's arguments for it (a run's without `--screenshot` and a
    /// batch's are the same), as Playwright's `launch` takes them: without `--headless`, which
    /// Playwright adds itself along with its own profile folder.
    static func chromium() throws(BenchmarkError) -> (browser: String, arguments: [String]) {
        guard let browser = ExecutableLocator.find("chromium") else {
            throw .peerUnavailable(reason: "chromium is not on PATH; \(Engine.chromium.installHint)")
        }
        return (browser, ChromiumLauncher.arguments(headless: false, takesScreenshots: false))
    }

    /// The peer: what a Playwright user writes, plus timing for the warm mode.
    static let source = #"""
        # Written by `pagescript bench`: Playwright running one script on one page, cold or warm.
        import json
        import sys
        import time

        from playwright.sync_api import sync_playwright

        mode, configuration, output_path = sys.argv[1], json.loads(sys.argv[2]), sys.argv[3]
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=configuration["browser"], args=configuration["arguments"], headless=True)
            try:
                page = browser.new_page()
                page.goto(configuration["url"])
                if mode == "cold":
                    reply = {"value": page.evaluate(configuration["script"])}
                else:
                    for _ in range(3):
                        page.evaluate(configuration["script"])
                    samples = []
                    for _ in range(configuration["repetitions"]):
                        started = time.perf_counter_ns()
                        page.evaluate(configuration["script"])
                        samples.append((time.perf_counter_ns() - started) / 1e9)
                    reply = {"samples": samples}
            finally:
                browser.close()
        with open(output_path, "w") as output:
            json.dump(reply, output)

        """#
}
