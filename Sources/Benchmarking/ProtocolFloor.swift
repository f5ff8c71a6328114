import Engines
import Foundation
import SystemSupport

/// The floor of a cold run: the least any WebDriver client must do to run one script on one
/// page, written as a bare-protocol client in a few lines of Python's `http.client`.
///
/// It does exactly what a cold run needs, in the order PageScript's launcher does it: for WebKit,
/// start Xvfb and wait for its display (`-displayfd`); start the driver on a free port and poll
/// `GET /status` every 5 ms until it is ready; `POST /session` with the capabilities PageScript
/// sends (for Chromium the same browser arguments, without PageScript's own throwaway profile:
/// a floor needs none; for Firefox ``Engines/FirefoxLauncher/sessionCapabilities(binary:headless:profile:language:)``
/// whole, WebDriver BiDi included, with geckodriver making the profile where it likes);
/// navigate; one `POST /execute/sync` of `return 1`; `DELETE` the session; stop the driver and
/// the X server and wait for both to exit. Nothing else: no library, no retries, no logging.
///
/// It is timed inside the Python process, from just before the first process is started to
/// just after the last one has exited, so the interpreter's own start is not
/// counted: PageScript is compared with the protocol's work alone, and pays its own start.
///
/// ```swift
/// let floor = try ProtocolFloor.prepare(python: "/usr/bin/python3", folder: folder)
/// let run = try floor.cold(engine: .webkit, pageURL: fixture.pageURL)
/// run.elapsed         // seconds, driver start to driver exit
/// run.phases          // ["driver ready": 0.03, "new session": 0.3, ...]
/// ```
public struct ProtocolFloor: Sendable {
    /// One cold run of the floor.
    public struct Run: Sendable, Decodable {
        /// What `return 1` returned (1).
        public let value: Int
        /// Seconds from starting the first process to the exit of the last, timed inside Python.
        public let elapsed: Double
        /// Seconds per phase, in order: `display`, `driver ready`, `new session`, `navigation`,
        /// `script`, `delete session`, `stop`.
        public let phases: [Phase]
        /// The processes the run started (Xvfb, the driver) and those below the driver (the
        /// browser and its helpers) just before the session was deleted; only when asked for.
        public let processes: [Int32]?
    }

    /// One phase of a run.
    public struct Phase: Sendable, Decodable {
        /// The phase's name.
        public let name: String
        /// Its duration, in seconds.
        public let seconds: Double
    }

    private let script: PythonScript

    /// Writes the floor's script into `folder` for `python` to run; only the standard library is
    /// needed, so any Python 3 will do.
    ///
    /// - Throws: ``BenchmarkError/fixture(reason:)`` when the script cannot be written.
    public static func prepare(python: String, folder: URL) throws(BenchmarkError) -> ProtocolFloor {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw .fixture(reason: "cannot create \(folder.path(percentEncoded: false)): \(error)")
        }
        let path = folder.appendingPathComponent("pagescript-floor.py").path(percentEncoded: false)
        return ProtocolFloor(script: try PythonScript.write(source, to: path, python: python, label: "the protocol floor"))
    }

    /// One cold run: the driver (and X server) started, one script run on `pageURL`, everything
    /// stopped.
    ///
    /// - Parameters:
    ///   - engine: WebKit, Chromium or Firefox.
    ///   - pageURL: The page.
    ///   - reportingProcesses: Whether the run lists the processes it started, for a test.
    /// - Throws: ``BenchmarkError`` when a program is missing or the run fails.
    public func cold(engine: Engine, pageURL: String, reportingProcesses: Bool = false) throws(BenchmarkError) -> Run {
        let driver = try engine.benchDriver()
        var configuration = Configuration(
            engine: engine.rawValue, driver: driver, url: pageURL, script: "return 1", reportProcesses: reportingProcesses)
        var environment = ProcessInfo.processInfo.environment
        if engine == .webkit {
            guard let xvfb = ExecutableLocator.find("Xvfb") else {
                throw .peerUnavailable(reason: "Xvfb is not on PATH; \(engine.installHint)")
            }
            configuration.xvfb = xvfb
            configuration.capabilities = JSONValue.object([
                (key: "webkitgtk:browserOptions", value: ["args": .array(WebKitLauncher.browserArguments.map { .string($0) })]),
            ]).serialized
            // The browser's environment as PageScript's run gives it; the floor's Xvfb sets DISPLAY.
            environment = WebKitLauncher.environment(display: "", takesScreenshots: false, base: environment)
            environment["DISPLAY"] = nil
        } else if engine == .firefox {
            configuration.capabilities = JSONValue.object(FirefoxLauncher.sessionCapabilities(binary: engine.benchBrowser ?? "firefox-esr")).serialized
            environment = FirefoxLauncher.environment(temporaryFolder: NSTemporaryDirectory(), display: nil, base: environment)
        } else {
            configuration.capabilities = JSONValue.object([
                (key: "goog:chromeOptions", value: [
                    "binary": .string(engine.benchBrowser ?? "chromium"),
                    "args": .array(ChromiumLauncher.arguments(takesScreenshots: false).map { .string($0) }),
                ]),
            ]).serialized
        }
        return try script.run(Run.self, configuration: configuration, environment: environment, timeout: 120).reply
    }

    private struct Configuration: Encodable {
        var engine: String
        var driver: String
        var xvfb: String?
        /// The `alwaysMatch` capabilities, as JSON text.
        var capabilities = "{}"
        var url: String
        var script: String
        var reportProcesses: Bool
    }

    /// The floor's client.
    static let source = #"""
        # Written by `pagescript bench`: the least a WebDriver client does for one cold run.
        import http.client
        import json
        import os
        import signal
        import socket
        import subprocess
        import sys
        import time

        configuration = json.loads(sys.argv[1])
        output_path = sys.argv[2]


        def request(connection, method, path, body=None):
            headers = {}
            payload = None
            if body is not None:
                payload = json.dumps(body)
                headers["Content-Type"] = "application/json"
            connection.request(method, path, body=payload, headers=headers)
            response = connection.getresponse()
            reply = json.loads(response.read() or b"null")
            if response.status != 200:
                raise RuntimeError(f"{method} {path}: HTTP {response.status}: {reply}")
            return reply["value"]


        def free_port():
            with socket.socket() as probe:
                probe.bind(("127.0.0.1", 0))
                return probe.getsockname()[1]


        def start_display(xvfb):
            read_end, write_end = os.pipe()
            process = subprocess.Popen(
                [xvfb, "-displayfd", str(write_end), "-nolisten", "tcp", "-screen", "0", "1280x1024x24", "-nolock"],
                pass_fds=(write_end,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            os.close(write_end)
            number = b""
            while not number.endswith(b"\n"):
                chunk = os.read(read_end, 32)
                if not chunk:
                    raise RuntimeError("Xvfb exited before reporting a display")
                number += chunk
            os.close(read_end)
            return process, ":" + number.decode().strip()


        def descendants(root):
            children = {}
            for entry in os.listdir("/proc"):
                if entry.isdigit():
                    try:
                        with open(f"/proc/{entry}/stat") as stat:
                            parent = int(stat.read().rsplit(")", 1)[1].split()[1])
                    except (OSError, IndexError, ValueError):
                        continue
                    children.setdefault(parent, []).append(int(entry))
            found, pending = [], [root]
            while pending:
                for child in children.get(pending.pop(), []):
                    found.append(child)
                    pending.append(child)
            return found


        phases = []
        started = time.perf_counter()
        mark = started


        def phase(name):
            global mark
            now = time.perf_counter()
            phases.append({"name": name, "seconds": now - mark})
            mark = now


        processes = []
        environment = dict(os.environ)
        display = None
        driver = None
        session_path = None
        completed = False
        try:
            if configuration.get("xvfb"):
                display, name = start_display(configuration["xvfb"])
                environment["DISPLAY"] = name
                phase("display")
            port = free_port()
            arguments = [f"--port={port}"]
            if configuration["engine"] == "chromium":
                arguments.append("--allowed-ips=127.0.0.1")
            else:
                arguments.append("--host=127.0.0.1")
            if configuration["engine"] == "firefox":
                # A BiDi port of its own, as PageScript's launcher gives geckodriver: the default
                # is Chromium's usual debugging port, which another browser may hold.
                arguments.append(f"--websocket-port={free_port()}")
            driver = subprocess.Popen(
                [configuration["driver"]] + arguments, env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            while True:
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                try:
                    if request(connection, "GET", "/status")["ready"]:
                        break
                except (ConnectionRefusedError, ConnectionResetError, http.client.RemoteDisconnected):
                    pass
                connection.close()
                if driver.poll() is not None:
                    raise RuntimeError(f"the driver exited with status {driver.returncode}")
                time.sleep(0.005)
            phase("driver ready")
            session = request(connection, "POST", "/session", {"capabilities": {"alwaysMatch": json.loads(configuration["capabilities"])}})
            session_path = "/session/" + session["sessionId"]
            phase("new session")
            request(connection, "POST", session_path + "/url", {"url": configuration["url"]})
            phase("navigation")
            value = request(connection, "POST", session_path + "/execute/sync", {"script": configuration["script"], "args": []})
            phase("script")
            if configuration["reportProcesses"]:
                processes = [driver.pid] + descendants(driver.pid) + ([display.pid] if display else [])
                mark = time.perf_counter()
            request(connection, "DELETE", session_path)
            session_path = None
            connection.close()
            phase("delete session")
            completed = True
        finally:
            if session_path:
                # A failed run still closes its browser: stopping the driver may not.
                request(http.client.HTTPConnection("127.0.0.1", port, timeout=30), "DELETE", session_path)
            if driver:
                if not completed:
                    # A new session that failed or timed out may leave its browser starting, and
                    # geckodriver's browser outlives a stopped driver: stop what is below it first.
                    for child in descendants(driver.pid):
                        try:
                            os.kill(child, signal.SIGKILL)
                        except ProcessLookupError:
                            pass
                driver.terminate()
                driver.wait()
            if display:
                display.terminate()
                display.wait()
        phase("stop")
        reply = {"value": value, "elapsed": sum(item["seconds"] for item in phases), "phases": phases}
        if configuration["reportProcesses"]:
            reply["processes"] = processes
        with open(output_path, "w") as output:
            json.dump(reply, output)

        """#
}
