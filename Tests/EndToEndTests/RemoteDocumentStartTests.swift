import Engines
import Foundation
import SystemSupport
import Testing
import TestSupport

/// A remote endpoint runs `document-start` scripts before the page's first script too, through
/// WebDriver BiDi's preload scripts: PageScript asks a remote Firefox or Chrome for `webSocketUrl`,
/// and geckodriver and chromedriver both offer it. Both drivers are started by hand, as a grid
/// node would run them.
@Suite(.serialized)
struct RemoteDocumentStartTests {
    /// A page whose first script notes what a userscript left before it.
    static func site() throws -> LoopbackServer {
        try LoopbackServer(pages: ["/": """
            <!doctype html><html><head><title>Early</title>
            <script>window.sawAtStart = typeof window.fromUserscript === "undefined" ? "nothing" : window.fromUserscript;</script>
            </head><body></body></html>
            """])
    }

    /// A geckodriver on free ports, its profiles in a folder of its own, stopped and removed by `stop()`.
    final class RemoteGeckodriver {
        let port: UInt16
        private let folder: TemporaryDirectory
        private let process: ChildProcess

        init() throws {
            let executable = try #require(EngineProgramLocator.find("geckodriver"), "Firefox's driver is installed by scripts/install-engines.sh")
            let browser = try #require(EngineProgramLocator.find("firefox-esr"))
            folder = try TemporaryDirectory("gd")
            port = try FreePort.next()
            var environment = ProcessInfo.processInfo.environment
            environment["TMPDIR"] = folder.path
            process = try ChildProcess.launch(
                executable: executable,
                arguments: ["--port", "\(port)", "--websocket-port", "\(try FreePort.next())", "--binary", browser, "--profile-root", folder.path],
                environment: environment)
            #expect(BatchCommandTests.eventually(timeout: 20) { TCPProbe.failureReason(host: "127.0.0.1", port: port, timeout: 0.2) == nil })
        }

        var endpoint: String { "http://127.0.0.1:\(port)" }

        func stop() { process.stop(grace: 2) }
    }

    func runsBeforeThePagesFirstScript(endpoint: String, browser: String, capabilities: String) async throws {
        let server = try Self.site()
        defer { server.stop() }
        let library = FileManager.default.temporaryDirectory.appendingPathComponent("pagescript-remote-start-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: library) }
        let created = try await PageScriptBinary.outcome(of: [
            "scripts", "new", "early", "--match", "\(server.url("/").dropLast())/*", "--run-at", "document-start",
            "-e", "window.fromUserscript = 'defined early'; document.readyState", "--library", library,
        ])
        #expect(created.status == 0, "\(created.standardError)")
        let run = try await PageScriptBinary.outcome(of: [
            "run", server.url("/"), "--webdriver-url", endpoint, "--browser", browser, "--capabilities", capabilities,
            "--library", library, "--with-library", "-e", "window.sawAtStart", "--json",
        ])
        #expect(run.status == 0, "\(run.standardError)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any], "\(run.standardOutput)")
        #expect(report["value"] as? String == "defined early", "\(browser): \(run.standardOutput)")
        let entry = ((report["before"] as? [String: Any])?["scripts"] as? [[String: Any]])?.first
        #expect(entry?["value"] as? String == "loading", "\(browser): \(run.standardOutput)")
        #expect((entry?["userscript"] as? [String: Any])?["ranAt"] == nil, "\(browser): \(run.standardOutput)")
    }

    @Test func aRemoteGeckodriverRunsThemThroughBiDi() async throws {
        let driver = try RemoteGeckodriver()
        defer { driver.stop() }
        try await runsBeforeThePagesFirstScript(endpoint: driver.endpoint, browser: "firefox",
                                                capabilities: #"{"moz:firefoxOptions":{"args":["-headless"]}}"#)
    }

    /// Through BiDi, not the DevTools commands chromedriver would pass on too: the driver's log
    /// shows the preload scripts and no DevTools script for new documents.
    @Test func aRemoteChromedriverRunsThemThroughBiDi() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pagescript-remote-start-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let log = folder + "/chromedriver.log"
        let driver = try RemoteChromeDriver(folder: folder, logPath: log)
        defer { driver.stop() }
        try await runsBeforeThePagesFirstScript(endpoint: driver.endpoint, browser: "chrome", capabilities: driver.capabilities)
        let commands = try String(contentsOfFile: log, encoding: .utf8)
        #expect(commands.contains("\"method\": \"script.addPreloadScript\""), "\(commands.suffix(2000))")
        #expect(!commands.contains("addScriptToEvaluateOnNewDocument"), "\(commands.suffix(2000))")
    }
}
