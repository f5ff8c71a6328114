import Engines
import Foundation
import SystemSupport
import WebDriver

/// Sessions on local WebKit: WebKitWebDriver allows one session per driver process, so each slot
/// gets a driver and a MiniBrowser of its own (started by PageScript, behind an
/// ``InspectorRelay``), all on one private Xvfb display.
///
/// A slot whose session dies loses its driver too: the next session starts from a fresh driver,
/// so nothing a crashed browser left behind is reused.
public actor LocalWebKitSource: SessionSource {
    public nonisolated let engineLabel = Engine.webkit.rawValue

    private let startupTimeout: Double
    private let path: String?
    private var programs: [String: String] = [:]
    private var display: XvfbDisplay?
    private var displayStart: Task<Result<XvfbDisplay, EngineError>, Never>?
    private var drivers: [Int: LocalDriver] = [:]
    private var isShutDown = false
    private let language: BrowserLanguage
    private let settings: BrowserSettings

    /// - Parameters:
    ///   - startupTimeout: How long a driver and its browser may take to start, in seconds.
    ///   - path: The `PATH` to find the programs on; this process's when `nil`.
    ///   - language: The language the browsers tell pages (``Engines/LaunchOptions/language``).
    ///   - settings: What the user asks of every browser (``Engines/BrowserSettings``; WebKit
    ///     takes no headers or cookies).
    public init(startupTimeout: Double = 30, path: String? = nil, language: BrowserLanguage = .fromEnvironment(),
                settings: BrowserSettings = BrowserSettings()) {
        self.startupTimeout = startupTimeout
        self.path = path
        self.language = language
        self.settings = settings
    }

    public func prepare() throws(SessionSourceError) {
        programs = try Engine.webkit.programsForBatch(path: path)
        // The driver logs of batches that were killed.
        ThrowawayProfileFolder.removeAbandoned(prefixes: [LocalDriver.logPrefix(engine: .webkit)])
    }

    public func openSession(slot: Int, scriptTimeout: Double, pageLoadTimeout: Double) async throws(SessionSourceError) -> OpenedSession {
        guard !isShutDown else { throw .fatal(reason: "the batch is stopping") }
        if let old = drivers.removeValue(forKey: slot) { await old.stop() }
        let display: XvfbDisplay
        switch await currentDisplay() {
        case let .success(running): display = running
        case let .failure(error): throw .failed(reason: error.description)
        }
        let environment = WebKitLauncher.environment(display: display.name, takesScreenshots: false, language: language)
        let driver: LocalDriver
        do {
            driver = try await WebKitLauncher.startDriver(
                executable: programs["WebKitWebDriver"] ?? "WebKitWebDriver", environment: environment, timeout: startupTimeout,
                browserArguments: WebKitLauncher.hiddenBrowserArguments + settings.webKitBrowserArguments)
        } catch {
            throw .failed(reason: error.description)
        }
        drivers[slot] = driver
        let own = WebKitLauncher.sessionCapabilities(for: driver, browserArguments: WebKitLauncher.hiddenBrowserArguments + settings.webKitBrowserArguments)
        let capabilities = settings.mergedCapabilities(SessionCapabilities.adding(scriptTimeout: scriptTimeout, pageLoadTimeout: pageLoadTimeout, to: own),
                                                       engine: .webkit, browserName: nil)
        do {
            let session = try await WebKitLauncher.newSession(on: driver, capabilities: capabilities, timeout: startupTimeout)
            if isShutDown {
                await session.delete(timeout: 1)
                throw WebDriverError.unreachable(endpoint: driver.client.endpoint.absoluteString, reason: "the batch is stopping")
            }
            return OpenedSession(session: session, slot: slot, engine: engineLabel)
        } catch {
            drivers[slot] = nil
            let reason = "\(Engine.webkit.displayName) did not open a session: \(error)\(driver.logTail())"
            await driver.stop()
            throw .failed(reason: reason)
        }
    }

    public func retire(_ session: OpenedSession) async {
        // The slot's driver and browser are stopped next either way: a session stuck in a page
        // is not waited for.
        await session.session.delete(timeout: 0.3)
        if let driver = drivers.removeValue(forKey: session.slot) { await driver.stop() }
    }

    public func shutdown() async {
        isShutDown = true
        let running = Array(drivers.values)
        drivers.removeAll()
        await withTaskGroup(of: Void.self) { group in
            for driver in running { group.addTask { await driver.stop() } }
        }
        if let display {
            await BlockingWork.run { display.stop() }
            self.display = nil
        }
    }

    public func browserProcesses() -> [SlotProcess] {
        let table = ProcessTable.snapshot()
        return drivers.flatMap { slot, driver in
            let browser = driver.browser.map { [$0.process.processID] + table.descendants(of: $0.process.processID) } ?? []
            return (table.descendants(of: driver.process.processID) + browser).compactMap { pid in
                ProcessTable.residentBytes(of: pid).map { SlotProcess(slot: slot, processID: pid, residentBytes: $0) }
            }
        }
    }

    /// The shared display, started (again, if it died) by whichever slot needs it first.
    private func currentDisplay() async -> Result<XvfbDisplay, EngineError> {
        if let display, display.process.isRunning { return .success(display) }
        if let displayStart { return await displayStart.value }
        let executable = programs["Xvfb"] ?? "Xvfb"
        let timeout = startupTimeout
        let start = Task {
            await BlockingWork.run { () -> Result<XvfbDisplay, EngineError> in
                do throws(EngineError) {
                    return .success(try XvfbDisplay.start(executable: executable, timeout: timeout))
                } catch {
                    return .failure(error)
                }
            }
        }
        displayStart = start
        let result = await start.value
        displayStart = nil
        if case let .success(started) = result {
            if isShutDown {
                await BlockingWork.run { started.stop() }
                return .failure(.failedToStart(engine: .webkit, reason: "the batch is stopping"))
            }
            display = started
        }
        return result
    }
}
