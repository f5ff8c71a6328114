import Engines
import Foundation

/// Selenium for Python running a batch: a thread pool of N workers, each with its own session,
/// taking URLs from a shared queue and, for each, `driver.get(url)` then
/// `driver.execute_script("return " + expression)`: what a Selenium user writes to do what
/// `pagescript batch -e EXPRESSION --jobs N` does.
///
/// It uses the same drivers as PageScript: one `chromedriver` serving every Chromium session
/// (started once, sessions made with `webdriver.Remote` on it), one `WebKitWebDriver` per WebKit
/// session, on the display the bench gives, and one `geckodriver` per Firefox session (it holds
/// one session at a time), headless; the same browser binaries, arguments and, for Firefox,
/// preferences (see ``SeleniumPeer/firefoxSettings()``). It
/// runs in ``SeleniumPeer``'s virtual environment, with Selenium Manager disabled the same way.
///
/// ```swift
/// let peer = SeleniumBatchPeer(selenium: try SeleniumPeer.prepare(in: folder) { _ in })
/// let run = try peer.run("document.title", engine: .chromium, urls: urls, jobs: 4, display: nil)
/// ```
public struct SeleniumBatchPeer: BatchThroughputPeer {
    /// Selenium, set up.
    public let selenium: SeleniumPeer

    public init(selenium: SeleniumPeer) {
        self.selenium = selenium
    }

    public func name(jobs: Int) -> String {
        "Selenium \(selenium.version) (Python), \(jobs) \(jobs == 1 ? "thread" : "threads")"
    }

    public func supports(_ engine: Engine) -> Bool {
        engine == .webkit || engine == .chromium || engine == .firefox
    }

    /// At least 1.5 times Selenium's throughput on the loopback pages: at most two thirds of its
    /// time per page.
    public var aim: Double? { 1 / 1.5 }

    /// What the script is told, as one JSON argument (the pages come in a file of their own).
    private struct Configuration: Encodable {
        var engine: String
        var driver: String
        var browser: String?
        var arguments: [String]
        /// Firefox's preferences, as the JSON text of an object.
        var preferences = "{}"
        var jobs: Int
        var expression: String
    }

    public func run(_ expression: String, engine: Engine, urls: [String], jobs: Int, display: String?) throws(BenchmarkError) -> BatchThroughputRun {
        guard supports(engine) else { throw .peerUnavailable(reason: "the Selenium batch peer does not drive \(engine)") }
        var configuration = Configuration(
            engine: engine.rawValue, driver: try engine.benchDriver(), browser: engine.benchBrowser,
            arguments: ChromiumLauncher.arguments(takesScreenshots: false), jobs: jobs, expression: expression)
        var environment = ProcessInfo.processInfo.environment
        environment["SE_OFFLINE"] = "true"
        if engine == .webkit {
            configuration.arguments = WebKitLauncher.browserArguments
            environment = WebKitLauncher.environment(display: display ?? "", takesScreenshots: false, base: environment)
            if display == nil { environment["DISPLAY"] = nil }
        } else if engine == .firefox {
            (configuration.arguments, configuration.preferences) = SeleniumPeer.firefoxSettings()
            environment = FirefoxLauncher.environment(temporaryFolder: NSTemporaryDirectory(), display: nil, base: environment)
        }
        let folder = URL(fileURLWithPath: selenium.scriptPath).deletingLastPathComponent().path
        return try BatchPeerScript.run(
            source: Self.script, path: folder + "/pagescript-batch-peer.py", python: selenium.python,
            label: "Selenium \(engine) batch, \(jobs) threads", urls: urls, configuration: configuration, environment: environment)
    }

    /// The peer: a Selenium user's thread pool, plus the timing.
    static let script = #"""
        # Written by `pagescript bench`: Selenium running a batch with a thread pool.
        import json
        import queue
        import sys
        import threading
        import time

        from selenium import webdriver
        from selenium.webdriver.common import selenium_manager


        def refuse_download(*arguments, **options):
            raise RuntimeError("Selenium Manager was asked to find a driver; the bench passes every path")


        # Every path is explicit; make sure Selenium Manager can never be reached for a download.
        selenium_manager.SeleniumManager.binary_paths = refuse_download

        list_path, configuration, output_path = sys.argv[1], json.loads(sys.argv[2]), sys.argv[3]
        with open(list_path) as listing:
            urls = [line.strip() for line in listing if line.strip()]
        pages = queue.Queue()
        for url in urls:
            pages.put(url)
        lock = threading.Lock()
        script = "return " + configuration["expression"]
        starts, ends, values, failures = [], [], {}, []

        shared_service = None
        if configuration["engine"] == "chromium":
            # One chromedriver serves every session, as in PageScript.
            from selenium.webdriver.chrome.service import Service
            shared_service = Service(executable_path=configuration["driver"])
            shared_service.start()


        \#(SeleniumPeer.firefoxStart)


        def start_driver():
            if configuration["engine"] == "firefox":
                # A geckodriver per worker: it holds one session at a time.
                return start_firefox(configuration)
            if configuration["engine"] == "chromium":
                options = webdriver.ChromeOptions()
                options.binary_location = configuration["browser"]
                for argument in configuration["arguments"]:
                    options.add_argument(argument)
                return webdriver.Remote(command_executor=shared_service.service_url, options=options)
            from selenium.webdriver.webkitgtk.service import Service
            options = webdriver.WebKitGTKOptions()
            for argument in configuration["arguments"]:
                options.add_argument(argument)
            return webdriver.WebKitGTK(options=options, service=Service(executable_path=configuration["driver"]))


        def work():
            try:
                driver = start_driver()
            except Exception as error:
                with lock:
                    failures.append(repr(error))
                return
            try:
                while True:
                    try:
                        url = pages.get_nowait()
                    except queue.Empty:
                        return
                    started = time.perf_counter()
                    driver.get(url)
                    value = driver.execute_script(script)
                    ended = time.perf_counter()
                    with lock:
                        starts.append(started)
                        ends.append(ended)
                        values[url] = value
            finally:
                driver.quit()


        threads = [threading.Thread(target=work) for _ in range(configuration["jobs"])]
        try:
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
        finally:
            if shared_service is not None:
                shared_service.stop()
        if failures:
            raise SystemExit("workers failed: " + "; ".join(failures))
        with open(output_path, "w") as output:
            json.dump({"seconds": max(ends) - min(starts), "pages": len(ends), "values": json.dumps(values)}, output)

        """#
}
