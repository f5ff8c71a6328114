import Foundation
import SystemSupport
import WebDriver

/// One local driver process (WebKitWebDriver, chromedriver or safaridriver) PageScript started,
/// with its client and, for WebKit, the browser behind it: the one way every launcher starts a
/// driver and waits until it is ready.
///
/// ``BrowserEngine/start(_:timeout:path:options:)`` starts one with its own display and profile;
/// a batch needs the pieces apart (several WebKit drivers on one display, several Chromium
/// profiles on one driver) and starts them through ``WebKitLauncher`` and ``ChromiumLauncher``.
public final class LocalDriver: Sendable {
    /// The driver process (its group holds the browsers it starts).
    public let process: ChildProcess
    /// The client talking to it.
    public let client: WebDriverClient
    /// The driver's log file.
    public let logPath: String
    /// The WebKit browser the driver attaches to, when PageScript started it (stopped with the driver).
    public let browser: WebKitBrowser?

    private init(process: ChildProcess, client: WebDriverClient, logPath: String, browser: WebKitBrowser?) {
        self.process = process
        self.client = client
        self.logPath = logPath
        self.browser = browser
    }

    /// Starts `executable` on a free loopback port and waits until it reports ready.
    ///
    /// - Parameters:
    ///   - engine: The engine the driver is for, for messages.
    ///   - executable: The driver's path.
    ///   - arguments: The driver's arguments for a port.
    ///   - environment: The driver's environment (and its browsers').
    ///   - timeout: How long it may take to be ready, in seconds.
    ///   - logPath: The log file to use (the browser's already writes there); a new one when `nil`.
    ///   - browser: The browser the driver attaches to, stopped with it (also when it fails to start).
    public static func start(
        engine: Engine, executable: String, arguments: @Sendable (UInt16) -> [String], environment: [String: String], timeout: Double,
        logPath givenLogPath: String? = nil, browser: WebKitBrowser? = nil
    ) async throws(EngineError) -> LocalDriver {
        var lastError = EngineError.failedToStart(engine: engine, reason: "the driver did not start")
        // Another program may take the free port before the driver binds it: then try another.
        for _ in 0..<3 {
            let port: UInt16
            do {
                port = try FreePort.next()
            } catch {
                throw .failedToStart(engine: engine, reason: "no free port: \(error)")
            }
            let logPath = givenLogPath ?? Self.newLogPath(engine: engine)
            let process: ChildProcess
            do {
                process = try ChildProcess.launch(executable: executable, arguments: arguments(port), environment: environment, outputPath: logPath)
            } catch {
                unlink(logPath)
                await browser?.stop()
                throw .failedToStart(engine: engine, reason: error.description)
            }
            let driver = LocalDriver(
                process: process, client: WebDriverClient(endpoint: URL(string: "http://127.0.0.1:\(port)")!, connectTimeout: 2),
                logPath: logPath, browser: browser)
            do {
                try await driver.waitUntilReady(engine: engine, port: port, timeout: timeout)
                return driver
            } catch {
                lastError = error
                await driver.stopDriver()
            }
        }
        await browser?.stop()
        throw lastError
    }

    /// Whether the driver process still runs.
    public var isRunning: Bool {
        process.isRunning
    }

    /// A new log file's path for a driver of `engine`.
    public static func newLogPath(engine: Engine) -> String {
        NSTemporaryDirectory() + "\(logPrefix(engine: engine))\(getpid())-\(UInt32.random(in: 0...UInt32.max)).log"
    }

    /// How a driver's log file is named, before the process id.
    public static func logPrefix(engine: Engine) -> String {
        "pagescript-\(engine.rawValue)-driver-"
    }

    /// Stops the driver, its process group and everything below it, the browser it attached to,
    /// and removes its log.
    public func stop() async {
        await stopDriver()
        await browser?.stop()
    }

    private func stopDriver() async {
        await client.shutdown()
        let process = process
        await BlockingWork.run { process.stop(grace: 0.5) }
        unlink(logPath)
    }

    /// The last lines of the driver's log, for messages.
    public func logTail(lines: Int = 3) -> String {
        guard let text = try? String(contentsOfFile: logPath, encoding: .utf8) else { return "" }
        let tail = text.split(separator: "\n").suffix(lines).joined(separator: " | ")
        return tail.isEmpty ? "" : "; driver log: \(tail)"
    }

    private func waitUntilReady(engine: Engine, port: UInt16, timeout: Double) async throws(EngineError) {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let status = process.pollExit() {
                throw .failedToStart(engine: engine, reason: "the driver exited (status \(status))\(logTail())")
            }
            // A direct TCP probe answers at once while the driver is not listening yet; the HTTP
            // client would retry until its connect timeout.
            if TCPProbe.failureReason(host: "127.0.0.1", port: port, timeout: 0.2) == nil,
               let reply = try? await client.status(timeout: 1), reply.ready {
                return
            }
            try? await Task.sleep(nanoseconds: 15_000_000)
        }
        throw .failedToStart(engine: engine, reason: "the driver was not ready within \(Int(timeout)) s\(logTail())")
    }
}
