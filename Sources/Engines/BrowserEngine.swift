import Foundation
import SystemSupport
import WebDriver

/// A browser engine ready to open sessions: local driver processes PageScript started (and will
/// stop), or a remote W3C endpoint such as a Selenium Grid.
///
/// ```swift
/// let engine = try await BrowserEngine.start(.webkit)
/// let session = try await engine.newSession(timeout: 30)
/// // ...
/// await session.delete()
/// await engine.stop()
/// ```
public final class BrowserEngine: Sendable {
    /// Which engine this is; `nil` for a remote endpoint of unknown kind.
    public let engine: Engine?
    /// The client that talks to the driver.
    public let client: WebDriverClient
    /// The capabilities sent with `POST /session`.
    public let sessionCapabilities: JSONValue
    /// The processes PageScript started for this engine (driver, WebKit's browser, X server),
    /// stopped by ``stop()``.
    public let processes: [ChildProcess]
    /// The driver's log file, when PageScript started the driver.
    public let driverLogPath: String?

    /// The `HOST:PORT` of the user's browser this engine attached to (``LaunchOptions/attachAddress``),
    /// whose sessions are never deleted; `nil` when PageScript starts its browsers.
    public let attachAddress: String?

    /// Folders PageScript made for the engine (a browser profile), removed by ``stop()``.
    let scratchFolders: [String]
    /// The size every session's window is given for its pages; `nil` to leave the window as the
    /// browser opens it (a remote endpoint, an attached browser).
    let viewport: Viewport?

    /// The MiniBrowser PageScript started for WebKitWebDriver (also in ``processes``), with its
    /// relay if it has one, stopped by ``stop()``.
    let webKitBrowser: WebKitBrowser?
    /// The driver process, when PageScript started it.
    let driverProcess: ChildProcess?
    /// What the user asks of the browser; its headers and cookies are set on each new session.
    let settings: BrowserSettings
    /// Whether the browser keeps its profile in a folder of the user's (`--profile`).
    let keptProfile: Bool
    /// The least time a new session is given, in seconds, whatever the caller asks
    /// (``LocalLaunch/sessionStartAllowance``).
    let sessionStartAllowance: Double

    /// Whether the browser holds nothing worth a polite goodbye: a local engine with a throwaway
    /// profile (WebKit's automation sessions are always ephemeral). Stopping its processes then
    /// loses nothing, and a run can skip deleting the session, which waits for the browser to
    /// close its windows. A kept profile, a remote endpoint or an attached browser is `false`.
    public var keepsNothing: Bool {
        switch engine {
        case .webkit?: true
        case .chromium?: attachAddress == nil && scratchFolders.contains { ($0 as NSString).lastPathComponent.hasPrefix(Self.throwawayProfilePrefix) }
        case .firefox?: !keptProfile
        default: false
        }
    }

    init(engine: Engine?, client: WebDriverClient, sessionCapabilities: JSONValue, processes: [ChildProcess], driverLogPath: String?,
         scratchFolders: [String] = [], attachAddress: String? = nil, webKitBrowser: WebKitBrowser? = nil, driverProcess: ChildProcess? = nil,
         viewport: Viewport? = nil, settings: BrowserSettings = BrowserSettings(), keptProfile: Bool = false,
         sessionStartAllowance: Double = 0) {
        self.settings = settings
        self.sessionStartAllowance = sessionStartAllowance
        self.keptProfile = keptProfile
        self.scratchFolders = scratchFolders
        self.viewport = viewport
        self.webKitBrowser = webKitBrowser
        self.driverProcess = driverProcess
        self.attachAddress = attachAddress
        self.engine = engine
        self.client = client
        self.sessionCapabilities = sessionCapabilities
        self.processes = processes
        self.driverLogPath = driverLogPath
    }

    /// Starts `engine`'s local driver (and, for WebKit, a private X display) and waits until the
    /// driver is ready. On any failure everything started so far is stopped again.
    ///
    /// With `options`, the browser opens on the user's display instead (no private X server, not
    /// headless) and keeps its profile in a folder of the user's.
    public static func start(
        _ engine: Engine, timeout: Double = 20, path: String? = nil, options: LaunchOptions = LaunchOptions()
    ) async throws(EngineError) -> BrowserEngine {
        if case .user = options.display, engine == .safari {
            throw .failedToStart(engine: engine, reason: "Safari always opens its own window; leave out --headed")
        }
        if case let .user(name) = options.display, let problem = Self.problem(withDisplay: name) {
            throw .failedToStart(engine: engine, reason: problem)
        }
        if let address = options.attachAddress {
            try checkAttachable(address, engine: engine, options: options)
        }
        if options.profileDirectory != nil, engine != .chromium, engine != .firefox {
            throw .failedToStart(engine: engine, reason: "a persistent profile is only available for Chromium and Firefox: "
                + "WebKit's and Safari's automation sessions are always ephemeral; use --engine chromium or firefox, or leave out --profile")
        }
        // An attached browser is the user's own: only the driver is needed.
        let found = engine.requiredPrograms.filter { !(options.display != .hidden && $0 == "Xvfb") }
            .filter { options.attachAddress == nil || $0 == "chromedriver" }.map { ($0, EngineProgramLocator.find($0, path: path)) }
        let missing = found.filter { $0.1 == nil }.map(\.0)
        guard missing.isEmpty else { throw .missing(engine: engine, programs: missing) }
        let programs = Dictionary(uniqueKeysWithValues: found.map { ($0.0, $0.1 ?? "") })

        // What killed runs left behind, in one look at each folder: their driver logs, browser
        // temporary folders and throwaway Chromium profiles.
        ThrowawayProfileFolder.removeAbandoned(prefixes: [LocalDriver.logPrefix(engine: engine), Self.browserTemporaryPrefix]
            + (engine == .chromium ? [Self.throwawayProfilePrefix] : []) + (engine == .firefox ? [Self.throwawayFirefoxProfilePrefix] : []))
        let launch: LocalLaunch
        switch engine {
        case .webkit: launch = try await WebKitLauncher.launch(programs: programs, options: options, timeout: timeout)
        case .chromium: launch = try await ChromiumLauncher.launch(programs: programs, options: options, timeout: timeout)
        case .safari: launch = try await SafariLauncher.launch(programs: programs, timeout: timeout)
        case .firefox: launch = try await FirefoxLauncher.launch(programs: programs, options: options, timeout: timeout)
        }
        // Stopped in this order: the driver, the browser behind it, the X server.
        var processes = [launch.driver.process]
        if let browser = launch.driver.browser { processes.append(browser.process) }
        if let display = launch.display { processes.append(display) }
        return BrowserEngine(engine: engine, client: launch.driver.client, sessionCapabilities: launch.capabilities, processes: processes,
                             driverLogPath: launch.driver.logPath, scratchFolders: launch.scratchFolders,
                             attachAddress: options.attachAddress, webKitBrowser: launch.driver.browser, driverProcess: launch.driver.process,
                             viewport: options.attachAddress == nil ? options.viewport : nil, settings: options.settings,
                             keptProfile: options.profileDirectory != nil, sessionStartAllowance: launch.sessionStartAllowance)
    }

    /// Refuses an attach PageScript cannot make: an engine whose driver always starts its own
    /// browser, other options that describe a browser PageScript would start, a malformed address
    /// or one where nothing listens (told at once, before chromedriver's retries).
    private static func checkAttachable(_ address: String, engine: Engine, options: LaunchOptions) throws(EngineError) {
        guard engine == .chromium else {
            throw .failedToStart(engine: engine, reason: "attaching to a running browser is only possible with Chromium: "
                + "\(engine.displayName)'s driver always starts a browser of its own; use --engine chromium, or leave out --attach")
        }
        guard options.display == .hidden, options.profileDirectory == nil else {
            throw .attachUnavailable(address: address, reason: "an attached browser keeps its own window and profile, so --headed and --profile do not apply")
        }
        guard let (host, port) = LaunchOptions.hostAndPort(ofAttachAddress: address) else {
            throw .attachUnavailable(address: address, reason: "the address must be HOST:PORT, such as 127.0.0.1:9222")
        }
        if let reason = TCPProbe.failureReason(host: host, port: port, timeout: 3) {
            throw .attachUnavailable(address: address, reason: "nothing answers there (\(reason))")
        }
    }

    /// Why a browser could not open a window on X display `name`, when that can be told at once:
    /// a local display (`:N`) whose server socket does not exist. Remote displays
    /// (`host:N`) are left to the browser.
    static func problem(withDisplay name: String) -> String? {
        guard name.hasPrefix(":") else { return nil }
        let number = name.dropFirst().prefix { $0.isNumber }
        guard !number.isEmpty else { return "the display \(name) ($DISPLAY) is not an X display name such as :0" }
        if FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)") { return nil }
        return "there is no X server on display \(name) ($DISPLAY): open PageScript in your desktop session, or start one (Xvfb \(name) &)"
    }

    /// The last lines of the driver's log, for error messages.
    public func logTail(lines: Int = 5) -> String {
        guard let driverLogPath, let text = try? String(contentsOfFile: driverLogPath, encoding: .utf8) else { return "" }
        let tail = text.split(separator: "\n").suffix(lines).joined(separator: " | ")
        return tail.isEmpty ? "" : "; driver log: \(tail)"
    }

    /// Opens a browser session. Errors are reported as ``EngineError`` naming the engine.
    ///
    /// - Parameters:
    ///   - timeout: How long the endpoint may take to start the browser, in seconds.
    ///   - scriptTimeout: The session's script timeout, in seconds, set at creation (no extra
    ///     round trip).
    ///   - pageLoadTimeout: The session's page-load timeout, in seconds.
    ///   - unhandledPromptBehavior: What the driver does with a dialog the page opens (W3C
    ///     `unhandledPromptBehavior`, e.g. `dismiss and notify`).
    public func newSession(timeout: Double, scriptTimeout: Double? = nil, pageLoadTimeout: Double? = nil,
                           unhandledPromptBehavior: String? = nil) async throws(EngineError) -> WebDriverSession {
        let timeout = max(timeout, sessionStartAllowance)
        var capabilities = sessionCapabilities
        var timeouts: [(key: String, value: JSONValue)] = []
        if let scriptTimeout { timeouts.append((key: "script", value: .integer(Int64(scriptTimeout * 1000)))) }
        if let pageLoadTimeout { timeouts.append((key: "pageLoad", value: .integer(Int64(pageLoadTimeout * 1000)))) }
        if case var .object(members) = capabilities {
            if !timeouts.isEmpty { members.append((key: "timeouts", value: .object(timeouts))) }
            if let unhandledPromptBehavior { members.append((key: "unhandledPromptBehavior", value: .string(unhandledPromptBehavior))) }
            capabilities = .object(members)
        }
        if let webKitBrowser, let driver = driverProcess { try await webKitBrowser.prepareForSession(driver: driver) }
        let session: WebDriverSession
        do throws(WebDriverError) {
            session = try await client.newSession(capabilities: capabilities, timeout: timeout)
            if let webKitBrowser, let driver = driverProcess { webKitBrowser.sessionStarted(session, driver: driver) }
            if let viewport {
                do throws(WebDriverError) {
                    try await session.fit(viewport, timeout: timeout)
                } catch {
                    await session.delete(timeout: 2)
                    throw error
                }
            }
        } catch {
            if let attachAddress {
                throw .attachUnavailable(address: attachAddress, reason: "chromedriver could not attach: \(error.description)")
            }
            if let engine {
                throw .failedToStart(engine: engine, reason: "\(error.description)\(logTail())")
            }
            throw .remoteUnavailable(endpoint: client.endpoint.absoluteString, reason: Self.remoteRefusal(error))
        }
        do throws(BrowserSettingsProblem) {
            try await settings.apply(to: session, timeout: timeout)
        } catch {
            await session.delete(timeout: 2)
            throw refusal(error.description)
        }
        guard attachAddress != nil else { return session }
        return WebDriverSession(id: session.id, capabilities: session.capabilities, client: client, leavesBrowserOpen: true)
    }

    /// A session refused for `reason`, as the error of this engine or endpoint.
    private func refusal(_ reason: String) -> EngineError {
        if let attachAddress { return .attachUnavailable(address: attachAddress, reason: reason) }
        if let engine { return .failedToStart(engine: engine, reason: reason) }
        return .remoteUnavailable(endpoint: client.endpoint.absoluteString, reason: reason)
    }

    /// How PageScript's one-run Chromium profile folders are named, before the process id.
    public static let throwawayProfilePrefix = "pagescript-chromium-profile-"
    /// How the folders PageScript's geckodrivers make their one-run Firefox profiles in are
    /// named, before the process id.
    public static let throwawayFirefoxProfilePrefix = "pagescript-firefox-profiles-"
    /// How the temporary folders PageScript gives the browsers it starts are named, before the
    /// process id.
    public static let browserTemporaryPrefix = "pagescript-browser-tmp-"

    /// Stops everything this engine started and releases its connections. Idempotent.
    public func stop() async {
        await client.shutdown()
        for process in processes {
            // WebKit's automation browser keeps nothing: it is not waited for (and its relay, if
            // it has one, stops with it).
            if let webKitBrowser, process === webKitBrowser.process {
                await webKitBrowser.stop()
            } else {
                process.stop(grace: 1)
            }
        }
        if let driverLogPath { unlink(driverLogPath) }
        for folder in scratchFolders {
            try? FileManager.default.removeItem(atPath: folder)
        }
    }
}
