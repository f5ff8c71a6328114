import Engines
import Foundation
import SystemSupport
import WebDriver

/// Sessions on local Firefox: geckodriver holds one session at a time, so each slot gets a
/// driver of its own, which makes the slot's headless Firefox a throwaway profile in a folder of
/// the source's (removed at ``shutdown()``), started with ``Engines/FirefoxLauncher``'s
/// arguments.
///
/// A slot whose session dies loses its driver too: the next session starts from a fresh driver
/// and profile, so nothing a crashed browser left behind is reused.
public actor LocalFirefoxSource: SessionSource {
    public nonisolated let engineLabel = Engine.firefox.rawValue

    private let startupTimeout: Double
    private let path: String?
    private var programs: [String: String] = [:]
    private var drivers: [Int: LocalDriver] = [:]
    /// Each slot driver's profile folder, inside the source's.
    private var profileRoots: [Int: String] = [:]
    private var folders: (profiles: String, temporary: String)?
    private var isShutDown = false
    private let language: BrowserLanguage
    private let settings: BrowserSettings

    /// - Parameters:
    ///   - startupTimeout: How long a driver and its browser may take to start, in seconds (at
    ///     least ``Engines/FirefoxLauncher/sessionStartAllowance``).
    ///   - path: The `PATH` to find the programs on; this process's (and PageScript's own engine
    ///     folder) when `nil`.
    ///   - language: The language the browsers tell pages (``Engines/LaunchOptions/language``).
    ///   - settings: What the user asks of every browser (``Engines/BrowserSettings``).
    public init(startupTimeout: Double = 30, path: String? = nil, language: BrowserLanguage = .fromEnvironment(),
                settings: BrowserSettings = BrowserSettings()) {
        self.startupTimeout = max(startupTimeout, FirefoxLauncher.sessionStartAllowance)
        self.path = path
        self.language = language
        self.settings = settings
    }

    public func prepare() throws(SessionSourceError) {
        programs = try Engine.firefox.programsForBatch(path: path)
        // What killed batches left behind: profiles, driver logs, the browsers' temporary folders.
        ThrowawayProfileFolder.removeAbandoned(prefixes: [
            BrowserEngine.throwawayFirefoxProfilePrefix, LocalDriver.logPrefix(engine: .firefox), BrowserEngine.browserTemporaryPrefix,
        ])
    }

    /// The folders the slots' profiles and the browsers' temporary files go in, made on first use.
    private func scratchFolders() throws(SessionSourceError) -> (profiles: String, temporary: String) {
        if let folders { return folders }
        let made = (profiles: NSTemporaryDirectory() + "\(BrowserEngine.throwawayFirefoxProfilePrefix)\(getpid())-\(UInt32.random(in: 0...UInt32.max))",
                    temporary: NSTemporaryDirectory() + "\(BrowserEngine.browserTemporaryPrefix)\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        do {
            try FileManager.default.createDirectory(atPath: made.profiles, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: made.temporary, withIntermediateDirectories: true)
        } catch {
            try? FileManager.default.removeItem(atPath: made.profiles)
            throw .fatal(reason: "cannot make the folders for Firefox's profiles: \(error)")
        }
        folders = made
        return made
    }

    public func openSession(slot: Int, scriptTimeout: Double, pageLoadTimeout: Double) async throws(SessionSourceError) -> OpenedSession {
        guard !isShutDown else { throw .fatal(reason: "the batch is stopping") }
        await stopDriver(of: slot)
        let folders = try scratchFolders()
        let profileRoot = folders.profiles + "/slot-\(slot)-\(UInt32.random(in: 0...UInt32.max))"
        do {
            try FileManager.default.createDirectory(atPath: profileRoot, withIntermediateDirectories: true)
        } catch {
            throw .failed(reason: "cannot make a profile folder for Firefox: \(error)")
        }
        profileRoots[slot] = profileRoot
        let driver: LocalDriver
        do {
            driver = try await FirefoxLauncher.startDriver(
                executable: programs["geckodriver"] ?? "geckodriver", profileRoot: profileRoot,
                environment: FirefoxLauncher.environment(temporaryFolder: folders.temporary, display: nil), timeout: startupTimeout)
        } catch {
            await stopDriver(of: slot)
            throw .failed(reason: error.description)
        }
        drivers[slot] = driver
        let own = FirefoxLauncher.sessionCapabilities(binary: programs["firefox-esr"] ?? "firefox-esr", downloads: profileRoot + "/downloads",
                                                      language: language)
        let capabilities = settings.mergedCapabilities(SessionCapabilities.adding(scriptTimeout: scriptTimeout, pageLoadTimeout: pageLoadTimeout, to: own),
                                                       engine: .firefox, browserName: nil)
        do {
            let session = try await driver.client.newSession(capabilities: capabilities, timeout: startupTimeout)
            if isShutDown {
                await session.delete(timeout: 1)
                throw WebDriverError.unreachable(endpoint: driver.client.endpoint.absoluteString, reason: "the batch is stopping")
            }
            do throws(BrowserSettingsProblem) {
                try await settings.apply(to: session, timeout: startupTimeout)
            } catch {
                await session.delete(timeout: 1)
                await stopDriver(of: slot)
                throw SessionSourceError.fatal(reason: error.description)
            }
            return OpenedSession(session: session, slot: slot, engine: engineLabel)
        } catch let error as SessionSourceError {
            throw error
        } catch {
            let reason = "\(Engine.firefox.displayName) did not open a session: \(error)\(driver.logTail())"
            await stopDriver(of: slot)
            throw .failed(reason: reason)
        }
    }

    public func retire(_ session: OpenedSession) async {
        // The slot's driver and browser are stopped, and the profile is thrown away: a session
        // stuck in a page is not waited for.
        await stopDriver(of: session.slot)
    }

    /// Stops `slot`'s driver and its browser, and removes the slot's profile folder.
    private func stopDriver(of slot: Int) async {
        if let driver = drivers.removeValue(forKey: slot) { await driver.stop() }
        if let profileRoot = profileRoots.removeValue(forKey: slot) { try? FileManager.default.removeItem(atPath: profileRoot) }
    }

    public func shutdown() async {
        isShutDown = true
        let running = Array(drivers.values)
        drivers.removeAll()
        profileRoots.removeAll()
        await withTaskGroup(of: Void.self) { group in
            for driver in running { group.addTask { await driver.stop() } }
        }
        if let folders {
            try? FileManager.default.removeItem(atPath: folders.profiles)
            try? FileManager.default.removeItem(atPath: folders.temporary)
            self.folders = nil
        }
    }

    public func browserProcesses() -> [SlotProcess] {
        let table = ProcessTable.snapshot()
        return drivers.flatMap { slot, driver in
            table.descendants(of: driver.process.processID).compactMap { pid in
                ProcessTable.residentBytes(of: pid).map { SlotProcess(slot: slot, processID: pid, residentBytes: $0) }
            }
        }
    }
}
