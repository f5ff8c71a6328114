import Engines
import Foundation
import SystemSupport

/// Selenium for Python, the tool a user would otherwise pick to run a script on a page, set up
/// in a virtual environment of its own and pointed at the same driver and browser binaries
/// PageScript uses, with the same browser arguments.
///
/// Nothing is downloaded but the `selenium` package itself (from PyPI, once): every driver and
/// browser path is passed explicitly, so Selenium Manager has nothing to look up, and the peer
/// script replaces Selenium Manager with a function that fails, so that a download could not
/// happen unnoticed.
///
/// ```swift
/// let peer = try SeleniumPeer.prepare(in: SeleniumPeer.defaultFolder(environment: env)) { print($0) }
/// let run = try peer.cold(engine: .chromium, pageURL: "file:///tmp/page.html", script: "return 1", display: nil)
/// run.elapsed
/// ```
public struct SeleniumPeer: Sendable {
    /// The virtual environment's Python.
    public let python: String
    /// The peer script, written into the virtual environment's folder.
    public let scriptPath: String
    /// The installed Selenium's version.
    public let version: String

    /// `$XDG_CACHE_HOME/pagescript/bench-venv`, else `~/.cache/pagescript/bench-venv`.
    public static func defaultFolder(environment: [String: String]) -> URL {
        let cache = environment["XDG_CACHE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? ((environment["HOME"] ?? NSHomeDirectory()) + "/.cache")
        return URL(fileURLWithPath: cache).appendingPathComponent("pagescript/bench-venv", isDirectory: true)
    }

    /// Makes the virtual environment in `folder` and installs Selenium into it, unless that was
    /// done before, and writes the peer script.
    ///
    /// - Parameters:
    ///   - folder: The virtual environment's folder.
    ///   - progress: Told what is being done (creating, installing), for the user.
    /// - Throws: ``BenchmarkError/peerUnavailable(reason:)`` without `python3`, its `venv`
    ///   module, or PyPI.
    public static func prepare(in folder: URL, progress: (String) -> Void) throws(BenchmarkError) -> SeleniumPeer {
        var path = folder.path(percentEncoded: false)
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        let python = path + "/bin/python"
        if (try? MeasuredProcess.run(executable: python, arguments: ["-c", "import selenium"], timeout: 60, label: "python")) == nil {
            guard let system = ExecutableLocator.find("python3") else {
                throw .peerUnavailable(reason: "python3 is not on PATH (Debian: sudo apt-get install python3 python3-venv)")
            }
            progress("creating a Python virtual environment in \(path)")
            do {
                try FileManager.default.createDirectory(at: folder.deletingLastPathComponent(), withIntermediateDirectories: true)
                _ = try MeasuredProcess.run(executable: system, arguments: ["-m", "venv", "--clear", path], timeout: 300, label: "python3 -m venv")
                progress("installing Selenium from PyPI (pip install selenium)")
                _ = try MeasuredProcess.run(
                    executable: python, arguments: ["-m", "pip", "install", "--disable-pip-version-check", "--quiet", "selenium"],
                    timeout: 600, label: "pip install selenium")
            } catch {
                throw .peerUnavailable(reason: "\(error)")
            }
        }
        let version: String
        do {
            version = try MeasuredProcess.run(
                executable: python, arguments: ["-c", "import selenium; print(selenium.__version__)"], timeout: 60, label: "python"
            ).output.trimmingCharacters(in: .whitespacesAndNewlines)
        } catch {
            throw .peerUnavailable(reason: "\(error)")
        }
        let scriptPath = path + "/pagescript-peer.py"
        do {
            try Data(peerScript.utf8).write(to: URL(fileURLWithPath: scriptPath))
        } catch {
            throw .peerUnavailable(reason: "cannot write \(scriptPath): \(error)")
        }
        return SeleniumPeer(python: python, scriptPath: scriptPath, version: version)
    }

    /// One cold run in a fresh Python process: start the driver, open a session, load the page,
    /// run `script` with `execute_script`, quit.
    ///
    /// - Parameters:
    ///   - engine: WebKit, Chromium or Firefox.
    ///   - pageURL: The page.
    ///   - script: The script, as Selenium takes it (`return 1`).
    ///   - display: The X display for WebKit (Firefox runs headless).
    /// - Returns: The process's run, timed from launch to exit, with its own peak memory.
    public func cold(engine: Engine, pageURL: String, script: String, display: String?) throws(BenchmarkError) -> MeasuredProcess {
        try runPeer(mode: "cold", engine: engine, pageURL: pageURL, script: script, repetitions: 0, display: display).run
    }

    /// Selenium's `execute_script` round trips on a warm session, timed inside the Python process
    /// after three unmeasured ones.
    ///
    /// - Parameters:
    ///   - engine: WebKit, Chromium or Firefox.
    ///   - pageURL: The page the session is on.
    ///   - script: The script, as Selenium takes it.
    ///   - repetitions: How many round trips are timed.
    ///   - display: The X display for WebKit (Firefox runs headless).
    public func warm(engine: Engine, pageURL: String, script: String, repetitions: Int, display: String?) throws(BenchmarkError) -> Measurement {
        let (_, reply) = try runPeer(mode: "warm", engine: engine, pageURL: pageURL, script: script, repetitions: repetitions, display: display)
        guard let samples = reply.samples, samples.count == repetitions else {
            throw .processFailed(command: "Selenium \(engine) warm run", status: "no samples", output: "")
        }
        return Measurement(name: "Selenium execute_script (warm)", samples: samples)
    }

    /// What the peer script is told, as one JSON argument.
    private struct Configuration: Encodable {
        var engine: String
        var driver: String
        var browser: String?
        var arguments: [String]
        /// Firefox's preferences, as the JSON text of an object.
        var preferences = "{}"
        var url: String
        var script: String
        var repetitions: Int
        var output: String
    }

    /// What the peer script writes to its output file.
    private struct Reply: Decodable {
        var value: Int?
        var samples: [Double]?
    }

    private func runPeer(
        mode: String, engine: Engine, pageURL: String, script: String, repetitions: Int, display: String?
    ) throws(BenchmarkError) -> (run: MeasuredProcess, reply: Reply) {
        let driver = try engine.benchDriver()
        let outputPath = NSTemporaryDirectory() + "pagescript-peer-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).json"
        defer { unlink(outputPath) }
        var configuration = Configuration(
            engine: engine.rawValue, driver: driver, browser: engine.benchBrowser, arguments: ChromiumLauncher.arguments(takesScreenshots: false),
            url: pageURL, script: script, repetitions: repetitions, output: outputPath)
        var environment = ProcessInfo.processInfo.environment
        environment["SE_OFFLINE"] = "true"
        if engine == .webkit {
            configuration.arguments = WebKitLauncher.browserArguments
            environment = WebKitLauncher.environment(display: display ?? "", takesScreenshots: false, base: environment)
            if display == nil { environment["DISPLAY"] = nil }
        } else if engine == .firefox {
            (configuration.arguments, configuration.preferences) = Self.firefoxSettings()
            environment = FirefoxLauncher.environment(temporaryFolder: NSTemporaryDirectory(), display: nil, base: environment)
        }
        let argument: String
        do {
            argument = String(decoding: try JSONEncoder().encode(configuration), as: UTF8.self)
        } catch {
            throw .fixture(reason: "the peer's configuration: \(error)")
        }
        let label = "Selenium \(engine) \(mode) run"
        let run = try MeasuredProcess.run(
            executable: python, arguments: [scriptPath, mode, argument], environment: environment,
            timeout: mode == "cold" ? 120 : 600, label: label)
        guard let data = FileManager.default.contents(atPath: outputPath),
              let reply = try? JSONDecoder().decode(Reply.self, from: data) else {
            throw .processFailed(command: label, status: "no reply", output: run.output)
        }
        return (run, reply)
    }

    /// Firefox's arguments and preferences (as the JSON text of an object), as PageScript's
    /// sessions give them: headless, the standard window, nothing run at a first start. The
    /// session is Selenium's own otherwise: classic WebDriver without BiDi, as a Selenium user
    /// gets it by default.
    static func firefoxSettings() -> (arguments: [String], preferences: String) {
        (FirefoxLauncher.arguments(headless: true, profile: nil),
         JSONValue.object(FirefoxLauncher.preferences(language: .fromEnvironment())).serialized)
    }

    /// The peer: what a Selenium user writes, plus timing for the warm mode.
    /// Python's `start_firefox(configuration)`, shared by the peer scripts: Selenium's Firefox
    /// with the browser, arguments and preferences PageScript's sessions get, and a geckodriver of
    /// its own (it holds one session at a time).
    static let firefoxStart = #"""
        def start_firefox(configuration):
            from selenium.webdriver.firefox.service import Service
            options = webdriver.FirefoxOptions()
            options.binary_location = configuration["browser"]
            for argument in configuration["arguments"]:
                options.add_argument(argument)
            for name, value in json.loads(configuration["preferences"]).items():
                options.set_preference(name, value)
            return webdriver.Firefox(options=options, service=Service(executable_path=configuration["driver"]))
        """#

    static let peerScript = #"""
        # Written by `pagescript bench`: Selenium running one script on one page, cold or warm.
        import json
        import sys
        import time

        from selenium import webdriver
        from selenium.webdriver.common import selenium_manager


        def refuse_download(*arguments, **options):
            raise RuntimeError("Selenium Manager was asked to find a driver; the bench passes every path")


        # Every path is explicit; make sure Selenium Manager can never be reached for a download.
        selenium_manager.SeleniumManager.binary_paths = refuse_download


        \#(firefoxStart)


        def start(configuration):
            if configuration["engine"] == "firefox":
                return start_firefox(configuration)
            if configuration["engine"] == "chromium":
                from selenium.webdriver.chrome.service import Service
                options = webdriver.ChromeOptions()
                options.binary_location = configuration["browser"]
                for argument in configuration["arguments"]:
                    options.add_argument(argument)
                return webdriver.Chrome(options=options, service=Service(executable_path=configuration["driver"]))
            from selenium.webdriver.webkitgtk.service import Service
            options = webdriver.WebKitGTKOptions()
            for argument in configuration["arguments"]:
                options.add_argument(argument)
            return webdriver.WebKitGTK(options=options, service=Service(executable_path=configuration["driver"]))


        mode, configuration = sys.argv[1], json.loads(sys.argv[2])
        driver = start(configuration)
        try:
            driver.get(configuration["url"])
            if mode == "cold":
                reply = {"value": driver.execute_script(configuration["script"])}
            else:
                for _ in range(3):
                    driver.execute_script(configuration["script"])
                samples = []
                for _ in range(configuration["repetitions"]):
                    started = time.perf_counter_ns()
                    driver.execute_script(configuration["script"])
                    samples.append((time.perf_counter_ns() - started) / 1e9)
                reply = {"samples": samples}
        finally:
            driver.quit()
        with open(configuration["output"], "w") as output:
            json.dump(reply, output)

        """#
}
