import Foundation
import SystemSupport

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

    /// The MiniBrowser PageScript started for WebKitWebDriver (also in ``processes``), with its
    /// relay if it has one, stopped by ``stop()``.
    let webKitBrowser: WebKitBrowser?
    /// The driver process, when PageScript started it.
    let driverProcess: ChildProcess?

    /// Whether the browser holds nothing worth a polite goodbye: a local engine with a throwaway
    /// profile (WebKit's automation sessions are always ephemeral). Stopping its processes then
    /// loses nothing, and a run can skip deleting the session, which waits for the browser to
    /// close its windows. A kept profile, a remote endpoint or an attached browser is `false`.
    public var keepsNothing: Bool {
        switch engine {
        case .webkit?: true
        case .chromium?: attachAddress == nil && scratchFolders.contains { ($0 as NSString).lastPathComponent.hasPrefix(Self.throwawayProfilePrefix) }
        default: false
        }
    }

    init(engine: Engine?, client: WebDriverClient, sessionCapabilities: JSONValue, processes: [ChildProcess], driverLogPath: String?,
         scratchFolders: [String] = [], attachAddress: String? = nil, webKitBrowser: WebKitBrowser? = nil, driverProcess: ChildProcess? = nil) {
        self.scratchFolders = scratchFolders
        self.webKitBrowser = webKitBrowser
        self.driverProcess = driverProcess
        self.attachAddress = attachAddress
        self.engine = engine
        self.client = client
        self.sessionCapabilities = sessionCapabilities
        self.processes = processes
        self.driverLogPath = driverLogPath
    }

    /// The arguments PageScript gives Chromium, apart from its throwaway profile folder: headless,
    /// a fixed window size, nothing that runs at first start, and `--no-sandbox` when run as root
    /// (Chromium's sandbox refuses root).
    public static var chromiumArguments: [String] {
        var arguments = ["--headless=new", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                         "--no-default-browser-check", "--disable-extensions", "--window-size=1280,1024"]
        if geteuid() == 0 { arguments.append("--no-sandbox") }
        return arguments
    }

    /// ``chromiumArguments`` for the browsers of a batch, which take no screenshots: the renderer
    /// also composites on its main thread (`--disable-threaded-compositing`).
    ///
    /// Right after a load, the first frame's compositing on a thread of its own competes with the
    /// page's main thread for the CPU: the first call into the page waited 5 to 6 ms for it on a
    /// 2-core machine, 3.5 to 4.5 ms without it (a batch's page: 31 to 32 ms, 27 to 29 ms).
    /// Nothing a page or a script sees changes; but headless Chromium then never answers a
    /// screenshot request, so `run --screenshot` keeps the compositor thread.
    public static var chromiumBatchArguments: [String] {
        chromiumArguments + ["--disable-threaded-compositing"]
    }

    /// The arguments PageScript gives WebKitGTK's MiniBrowser: `--automation`, which lets the
    /// driver control it.
    public static let webKitArguments = ["--automation"]

    /// Sets `WEBKIT_DISABLE_COMPOSITING_MODE=1` in `environment` (unless it is set already), for
    /// WebKit browsers on PageScript's private X display that take no screenshots (`batch`):
    /// nobody looks at that screen, and without accelerated compositing WebKitGTK stops painting
    /// every frame through Mesa's software OpenGL (llvmpipe), a fifth of the machine's time in a
    /// batch; pages lay out the same. WebKitWebDriver's Take Screenshot never answers in that
    /// mode, so `run`, `edit` and `browse` keep compositing.
    public static func renderWithoutCompositing(_ environment: inout [String: String]) {
        if environment["WEBKIT_DISABLE_COMPOSITING_MODE"] == nil { environment["WEBKIT_DISABLE_COMPOSITING_MODE"] = "1" }
    }

    /// Uses a remote W3C endpoint; nothing is started locally.
    ///
    /// - Parameters:
    ///   - endpoint: The endpoint's base URL, e.g. `http://grid.example:4444/wd/hub`.
    ///   - browserName: The `browserName` capability to ask for (`chrome`, `firefox`, `safari`), if any.
    public static func remote(endpoint: URL, browserName: String? = nil) -> BrowserEngine {
        var capabilities: [(key: String, value: JSONValue)] = []
        if let browserName { capabilities.append((key: "browserName", value: .string(browserName))) }
        return BrowserEngine(
            engine: nil, client: WebDriverClient(endpoint: endpoint, connectTimeout: 5),
            sessionCapabilities: .object(capabilities), processes: [], driverLogPath: nil)
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
        if options.profileDirectory != nil, engine != .chromium {
            throw .failedToStart(engine: engine, reason: "a persistent profile is only available for Chromium: "
                + "WebKit's and Safari's automation sessions are always ephemeral; use --engine chromium or leave out --profile")
        }
        // An attached browser is the user's own: only the driver is needed.
        let found = engine.requiredPrograms.filter { !(options.display != .hidden && $0 == "Xvfb") }
            .filter { options.attachAddress == nil || $0 == "chromedriver" }.map { ($0, ExecutableLocator.find($0, path: path)) }
        let missing = found.filter { $0.1 == nil }.map(\.0)
        guard missing.isEmpty else { throw .missing(engine: engine, programs: missing) }
        let programs = Dictionary(uniqueKeysWithValues: found.map { ($0.0, $0.1 ?? "") })

        var started: [ChildProcess] = []
        var webKitBrowser: WebKitBrowser?
        var scratchFolders: [String] = []
        // What killed runs left behind, in one look at each folder: their driver logs, browser
        // temporary folders and throwaway Chromium profiles.
        ThrowawayProfileFolder.removeAbandoned(prefixes: [Self.driverLogPrefix(engine), Self.browserTemporaryPrefix]
            + (engine == .chromium ? [Self.throwawayProfilePrefix] : []))
        let logPath = NSTemporaryDirectory() + "\(Self.driverLogPrefix(engine))\(getpid())-\(UInt32.random(in: 0...UInt32.max)).log"
        do {
            var environment = ProcessInfo.processInfo.environment
            let capabilities: JSONValue
            let driverPath: String
            var driverArguments: [String]
            let port = try FreePort.next()
            switch engine {
            case .webkit:
                switch options.display {
                case .hidden:
                    let display = try XvfbDisplay.start(executable: programs["Xvfb"] ?? "Xvfb", timeout: timeout)
                    started.append(display.process)
                    environment["DISPLAY"] = display.name
                    PhaseTimeline.current?.end("display")
                case let .user(name):
                    environment["DISPLAY"] = name
                }
                // Keep the browser off any accessibility bus or session bus of the user's desktop.
                environment["NO_AT_BRIDGE"] = "1"
                driverPath = programs["WebKitWebDriver"] ?? "WebKitWebDriver"
                driverArguments = ["--port=\(port)", "--host=127.0.0.1"]
                // The browser is PageScript's, with its connection to the driver past TCP's delayed
                // acknowledgements (see WebKitBrowser).
                if let browser = try await WebKitBrowser.startIfAvailable(
                    forDriver: driverPath, environment: environment, outputPath: logPath, timeout: timeout,
                    allowDirectLink: !options.scriptsPastTheDriver) {
                    started.append(browser.process)
                    webKitBrowser = browser
                    driverArguments.append(browser.driverArgument)
                    capabilities = [:]
                } else {
                    capabilities = ["webkitgtk:browserOptions": ["args": .array(Self.webKitArguments.map { .string($0) })]]
                }
            case .chromium where options.attachAddress != nil:
                driverPath = programs["chromedriver"] ?? "chromedriver"
                driverArguments = ["--port=\(port)", "--allowed-ips=127.0.0.1"]
                capabilities = ["goog:chromeOptions": ["debuggerAddress": .string(options.attachAddress ?? "")]]
            case .chromium:
                driverPath = programs["chromedriver"] ?? "chromedriver"
                driverArguments = ["--port=\(port)", "--allowed-ips=127.0.0.1"]
                var arguments = Self.chromiumArguments.filter { options.display == .hidden || $0 != "--headless=new" }.map { JSONValue.string($0) }
                if case let .user(name) = options.display { environment["DISPLAY"] = name }
                let profile: String
                if let kept = options.profileDirectory {
                    profile = kept
                    try FileManager.default.createDirectory(atPath: profile, withIntermediateDirectories: true)
                } else {
                    // A profile folder of PageScript's own, removed in stop(), so that a browser
                    // that had to be killed leaves no profile behind; in memory where there is room,
                    // since removing it from a disk costs a cold run a few hundred milliseconds.
                    profile = ThrowawayProfileFolder.path(named: "\(Self.throwawayProfilePrefix)\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
                    scratchFolders.append(profile)
                    // Starts on about:blank, not on the New Tab page the first navigation would wait for.
                    try ChromiumProfile.makeThrowaway(at: profile)
                }
                arguments.append(.string("--user-data-dir=\(profile)"))
                // Chromium's own temporary folders (`org.chromium.Chromium.*`) go where they are
                // removed with everything else: a browser that is stopped rather than quit leaves
                // them behind, one or two a run.
                let temporary = ThrowawayProfileFolder.path(named: "\(Self.browserTemporaryPrefix)\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
                try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
                scratchFolders.append(temporary)
                environment["TMPDIR"] = temporary
                capabilities = ["goog:chromeOptions": ["binary": .string(programs["chromium"] ?? "chromium"), "args": .array(arguments)]]
            case .safari:
                driverPath = programs["safaridriver"] ?? "safaridriver"
                driverArguments = ["--port", "\(port)"]
                capabilities = ["browserName": "safari"]
            }
            let driver = try ChildProcess.launch(
                executable: driverPath, arguments: driverArguments, environment: environment, outputPath: logPath)
            started.append(driver)
            let client = WebDriverClient(endpoint: URL(string: "http://127.0.0.1:\(port)")!, connectTimeout: 2)
            let running = BrowserEngine(engine: engine, client: client, sessionCapabilities: capabilities,
                                        processes: started.reversed(), driverLogPath: logPath, scratchFolders: scratchFolders,
                                        attachAddress: options.attachAddress, webKitBrowser: webKitBrowser, driverProcess: driver)
            do {
                try await running.waitUntilReady(driver: driver, timeout: timeout)
                PhaseTimeline.current?.end("driver")
            } catch {
                // The client owns an event loop that must be shut down before it is released.
                await running.client.shutdown()
                throw error
            }
            return running
        } catch let error as EngineError {
            started.reversed().forEach { $0.stop() }
            await webKitBrowser?.stop()
            scratchFolders.forEach { try? FileManager.default.removeItem(atPath: $0) }
            unlink(logPath)
            throw error
        } catch {
            started.reversed().forEach { $0.stop() }
            await webKitBrowser?.stop()
            scratchFolders.forEach { try? FileManager.default.removeItem(atPath: $0) }
            unlink(logPath)
            throw .failedToStart(engine: engine, reason: "\(error)")
        }
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

    private func waitUntilReady(driver: ChildProcess, timeout: Double) async throws(EngineError) {
        let engine = self.engine ?? .webkit
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let status = driver.pollExit() {
                throw .failedToStart(engine: engine, reason: "the driver exited (status \(status))\(logTail())")
            }
            // The HTTP client retries a refused connection until its connect timeout; a direct
            // TCP probe answers at once while the driver is not listening yet.
            let port = UInt16(client.endpoint.port ?? 80)
            if TCPProbe.failureReason(host: "127.0.0.1", port: port, timeout: 0.2) == nil,
               let reply = try? await client.status(timeout: 1), reply.ready {
                return
            }
            try? await Task.sleep(nanoseconds: 15_000_000)
        }
        // On a loaded machine the deadline can pass before the loop looked at the driver at all.
        if let status = driver.pollExit() {
            throw .failedToStart(engine: engine, reason: "the driver exited (status \(status))\(logTail())")
        }
        throw .failedToStart(engine: engine, reason: "the driver was not ready within \(Int(timeout)) s\(logTail())")
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
        do {
            let session = try await client.newSession(capabilities: capabilities, timeout: timeout)
            if let webKitBrowser, let driver = driverProcess { webKitBrowser.sessionStarted(session, driver: driver) }
            guard attachAddress != nil else { return session }
            return WebDriverSession(id: session.id, capabilities: session.capabilities, client: client, leavesBrowserOpen: true)
        } catch {
            if let attachAddress {
                throw .attachUnavailable(address: attachAddress, reason: "chromedriver could not attach: \(error.description)")
            }
            if let engine {
                throw .failedToStart(engine: engine, reason: "\(error.description)\(logTail())")
            }
            throw .remoteUnavailable(endpoint: client.endpoint.absoluteString, reason: error.description)
        }
    }

    /// How PageScript's one-run Chromium profile folders are named, before the process id.
    static let throwawayProfilePrefix = "pagescript-chromium-profile-"
    /// How the temporary folders PageScript gives the browsers it starts are named, before the
    /// process id.
    public static let browserTemporaryPrefix = "pagescript-browser-tmp-"

    /// How a driver's log file is named, before the process id.
    static func driverLogPrefix(_ engine: Engine) -> String {
        "pagescript-\(engine.rawValue)-driver-"
    }

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
