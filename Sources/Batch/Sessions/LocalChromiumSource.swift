import Engines
import Foundation
import SystemSupport
import WebDriver

/// Sessions on local Chromium: one chromedriver serves every slot, and each slot's session is a
/// headless Chromium with a throwaway profile folder of its own (two browsers cannot share one),
/// removed when the session ends, started with ``Engines/ChromiumLauncher``'s arguments for a
/// browser that takes no screenshots (no compositor thread).
///
/// When chromedriver itself dies, the next slot that needs a session starts a new one.
public actor LocalChromiumSource: SessionSource {
    public nonisolated let engineLabel = Engine.chromium.rawValue

    private let startupTimeout: Double
    private let path: String?
    private var programs: [String: String] = [:]
    private var driver: LocalDriver?
    private var driverStart: Task<Result<LocalDriver, EngineError>, Never>?
    private var profiles: [Int: String] = [:]
    private var temporaryFolder: String?
    private var isShutDown = false
    private let language: BrowserLanguage
    private let settings: BrowserSettings

    /// - Parameters:
    ///   - startupTimeout: How long the driver and a browser may take to start, in seconds.
    ///   - path: The `PATH` to find the programs on; this process's when `nil`.
    ///   - language: The language the browsers tell pages (``Engines/LaunchOptions/language``).
    ///   - settings: What the user asks of every browser (``Engines/BrowserSettings``).
    public init(startupTimeout: Double = 30, path: String? = nil, language: BrowserLanguage = .fromEnvironment(),
                settings: BrowserSettings = BrowserSettings()) {
        self.startupTimeout = startupTimeout
        self.path = path
        self.language = language
        self.settings = settings
    }

    public func prepare() throws(SessionSourceError) {
        programs = try Engine.chromium.programsForBatch(path: path)
        // What killed batches left behind: profiles, driver logs, the browsers' temporary folders.
        ThrowawayProfileFolder.removeAbandoned(prefixes: [
            Self.profilePrefix, LocalDriver.logPrefix(engine: .chromium), BrowserEngine.browserTemporaryPrefix,
        ])
    }

    /// How the slots' profile folders are named, before the process id.
    static let profilePrefix = "pagescript-batch-chromium-profile-"

    /// The temporary folder of the browsers this source starts (their `TMPDIR`, where Chromium
    /// makes folders of its own that a stopped browser leaves behind), made on first use and
    /// removed at ``shutdown()``.
    private func browserTemporaryFolder() throws(EngineError) -> String {
        if let temporaryFolder { return temporaryFolder }
        let folder = NSTemporaryDirectory() + "\(BrowserEngine.browserTemporaryPrefix)\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw .failedToStart(engine: .chromium, reason: "cannot make a temporary folder for Chromium: \(error)")
        }
        temporaryFolder = folder
        return folder
    }

    public func openSession(slot: Int, scriptTimeout: Double, pageLoadTimeout: Double) async throws(SessionSourceError) -> OpenedSession {
        let opened = try await newSession(slot: slot, scriptTimeout: scriptTimeout, pageLoadTimeout: pageLoadTimeout)
        do throws(BrowserSettingsProblem) {
            try await settings.apply(to: opened.session, timeout: startupTimeout)
        } catch {
            await retire(opened)
            throw .fatal(reason: error.description)
        }
        return opened
    }

    /// A new session for `slot`, on a profile of its own.
    private func newSession(slot: Int, scriptTimeout: Double, pageLoadTimeout: Double) async throws(SessionSourceError) -> OpenedSession {
        guard !isShutDown else { throw .fatal(reason: "the batch is stopping") }
        let driver: LocalDriver
        switch await runningDriver() {
        case let .success(running): driver = running
        case let .failure(error): throw .failed(reason: error.description)
        }
        let profile = NSTemporaryDirectory() + "\(Self.profilePrefix)\(getpid())-\(slot)-\(UInt32.random(in: 0...UInt32.max))"
        do {
            try ChromiumProfile.makeThrowaway(at: profile)
        } catch {
            throw .failed(reason: "cannot make a profile folder for Chromium: \(error)")
        }
        profiles[slot] = profile
        let browser = ChromiumLauncher.sessionCapabilities(binary: programs["chromium"] ?? "chromium", profile: profile, takesScreenshots: false,
                                                            language: language)
        let capabilities = settings.mergedCapabilities(SessionCapabilities.adding(scriptTimeout: scriptTimeout, pageLoadTimeout: pageLoadTimeout, to: browser),
                                                       engine: .chromium, browserName: nil)
        do {
            let session = try await driver.client.newSession(capabilities: capabilities, timeout: startupTimeout)
            if isShutDown {
                await session.delete(timeout: 1)
                throw WebDriverError.unreachable(endpoint: driver.client.endpoint.absoluteString, reason: "the batch is stopping")
            }
            return OpenedSession(session: session, slot: slot, engine: engineLabel)
        } catch {
            await removeProfile(of: slot)
            throw .failed(reason: "\(Engine.chromium.displayName) did not open a session: \(error)\(driver.logTail())")
        }
    }

    public func retire(_ session: OpenedSession) async {
        await session.session.delete(timeout: 2)
        await removeProfile(of: session.slot)
    }

    public func shutdown() async {
        isShutDown = true
        if let driver {
            await driver.stop()
            self.driver = nil
        }
        for slot in Array(profiles.keys) { await removeProfile(of: slot) }
        if let temporaryFolder {
            try? FileManager.default.removeItem(atPath: temporaryFolder)
            self.temporaryFolder = nil
        }
    }

    public func browserProcesses() -> [SlotProcess] {
        guard let driver else { return [] }
        let table = ProcessTable.snapshot()
        var found: [SlotProcess] = []
        for pid in table.descendants(of: driver.process.processID) {
            let command = ProcessTable.commandLine(of: pid)
            // The browser process itself: it has the slot's profile and no --type= of a helper.
            guard !command.contains(" --type="),
                  let slot = profiles.first(where: { command.contains("--user-data-dir=\($0.value)") })?.key else { continue }
            for member in [pid] + table.descendants(of: pid) {
                if let bytes = ProcessTable.residentBytes(of: member) {
                    found.append(SlotProcess(slot: slot, processID: member, residentBytes: bytes))
                }
            }
        }
        return found
    }

    /// Kills whatever still runs on the slot's profile (a browser whose session could not be
    /// deleted) and removes the folder.
    private func removeProfile(of slot: Int) async {
        guard let profile = profiles.removeValue(forKey: slot) else { return }
        await BlockingWork.run {
            let table = ProcessTable.snapshot()
            let marker = "--user-data-dir=\(profile)"
            for pid in table.descendants(of: getpid()) where ProcessTable.commandLine(of: pid).contains(marker) {
                for member in [pid] + table.descendants(of: pid) { kill(member, SIGKILL) }
            }
            try? FileManager.default.removeItem(atPath: profile)
        }
    }

    /// The shared chromedriver, started (again, if it died) by whichever slot needs it first.
    private func runningDriver() async -> Result<LocalDriver, EngineError> {
        if let driver, driver.isRunning { return .success(driver) }
        if let driverStart { return await driverStart.value }
        let dead = driver
        driver = nil
        let executable = programs["chromedriver"] ?? "chromedriver"
        let timeout = startupTimeout
        var environment = ProcessInfo.processInfo.environment
        do throws(EngineError) {
            environment["TMPDIR"] = try browserTemporaryFolder()
        } catch {
            return .failure(error)
        }
        let start = Task { () -> Result<LocalDriver, EngineError> in
            if let dead { await dead.stop() }
            do throws(EngineError) {
                return .success(try await ChromiumLauncher.startDriver(executable: executable, environment: environment, timeout: timeout))
            } catch {
                return .failure(error)
            }
        }
        driverStart = start
        let result = await start.value
        driverStart = nil
        if case let .success(started) = result {
            if isShutDown {
                await started.stop()
                return .failure(.failedToStart(engine: .chromium, reason: "the batch is stopping"))
            }
            driver = started
        }
        return result
    }
}
