import Foundation
import SystemSupport
import WebDriver

/// WebKit's start, in one place: the environment its driver and browser get on an X display,
/// WebKitWebDriver's arguments, PageScript's own MiniBrowser behind it (``WebKitBrowser``) and
/// the capabilities a session asks for. ``BrowserEngine/start(_:timeout:path:options:)`` (one
/// driver on a display of its own) and a batch's session pool (a driver per slot on one shared
/// display) both start WebKit through it.
///
/// ```swift
/// let environment = WebKitLauncher.environment(display: display.name, takesScreenshots: false)
/// let driver = try await WebKitLauncher.startDriver(executable: "/usr/bin/WebKitWebDriver", environment: environment)
/// let session = try await WebKitLauncher.newSession(on: driver, capabilities: .object(WebKitLauncher.sessionCapabilities(for: driver)), timeout: 30)
/// ```
public enum WebKitLauncher {
    /// The arguments PageScript gives WebKitGTK's MiniBrowser: `--automation`, which lets the
    /// driver control it.
    public static let browserArguments = ["--automation"]

    /// The arguments a MiniBrowser on PageScript's private display gets besides: its window
    /// without a header bar (`--full-screen`, which without a window manager changes nothing
    /// else), so that pages get the whole window, ``Viewport/standard``.
    public static let hiddenBrowserArguments = ["--full-screen"]

    /// The environment of a driver and its browsers on X display `display`.
    ///
    /// - Parameter takesScreenshots: `false` for browsers on PageScript's private display that
    ///   are never asked for a picture (a batch): `WEBKIT_DISABLE_COMPOSITING_MODE=1` (unless set
    ///   already), since nobody looks at that screen, and without accelerated compositing
    ///   WebKitGTK stops painting every frame through Mesa's software OpenGL (llvmpipe), a large
    ///   share of the machine's time in a batch; pages lay out the same. WebKitWebDriver's Take
    ///   Screenshot never answers in that mode.
    ///   - language: The language pages are told. WebKitGTK takes it from the locale
    ///   (`LANG=de_DE.UTF-8`; `LC_ALL`, `LC_MESSAGES` and `LANGUAGE` are taken away so that they
    ///   cannot override it); where that locale is not installed it tells pages `en-US`.
    public static func environment(display: String, takesScreenshots: Bool = true, language: BrowserLanguage = .fromEnvironment(),
                                   base: [String: String] = ProcessInfo.processInfo.environment) -> [String: String] {
        var environment = base
        environment["DISPLAY"] = display
        for name in ["LC_ALL", "LC_MESSAGES", "LANGUAGE"] { environment[name] = nil }
        environment["LANG"] = language.posixLocale
        if !takesScreenshots, environment["WEBKIT_DISABLE_COMPOSITING_MODE"] == nil {
            environment["WEBKIT_DISABLE_COMPOSITING_MODE"] = "1"
        }
        // Keep the browser off any accessibility bus or session bus of the user's desktop.
        environment["NO_AT_BRIDGE"] = "1"
        return environment
    }

    /// WebKitWebDriver's arguments: its port on loopback, and the browser it attaches to when
    /// PageScript started one (``WebKitBrowser/driverArgument``).
    static func driverArguments(port: UInt16, target: String?) -> [String] {
        ["--port=\(port)", "--host=127.0.0.1"] + (target.map { [$0] } ?? [])
    }

    /// Starts PageScript's MiniBrowser (when this WebKit allows it; see ``WebKitBrowser``) and a
    /// WebKitWebDriver attached to it, and waits until the driver is ready. Without a MiniBrowser
    /// to start, the driver starts its own browser for each session.
    ///
    /// - Parameters:
    ///   - allowDirectLink: Whether scripts may go to the browser past the driver
    ///     (``LaunchOptions/scriptsPastTheDriver``).
    ///   - logPath: The log both write to; a new one when `nil`.
    ///   - browserArguments: The browser's arguments beyond ``browserArguments`` (``BrowserSettings/webKitBrowserArguments``).
    public static func startDriver(executable: String, environment: [String: String], timeout: Double = 30,
                                   allowDirectLink: Bool = false, logPath: String? = nil,
                                   browserArguments extra: [String] = []) async throws(EngineError) -> LocalDriver {
        let log = logPath ?? LocalDriver.newLogPath(engine: .webkit)
        let browser = try await WebKitBrowser.startIfAvailable(
            forDriver: executable, environment: environment, outputPath: log, timeout: timeout, allowDirectLink: allowDirectLink,
            arguments: browserArguments + extra)
        let target = browser?.driverArgument
        do {
            return try await LocalDriver.start(engine: .webkit, executable: executable, arguments: { driverArguments(port: $0, target: target) },
                                               environment: environment, timeout: timeout, logPath: log, browser: browser)
        } catch {
            if logPath == nil { unlink(log) }
            throw error
        }
    }

    /// The capabilities a session on `driver` asks for: none when PageScript started the
    /// browser, else the MiniBrowser's arguments (``browserArguments`` and `extra`) for the driver
    /// to start it with.
    public static func sessionCapabilities(for driver: LocalDriver, browserArguments extra: [String] = []) -> [(key: String, value: JSONValue)] {
        guard driver.browser == nil else { return [] }
        return [(key: "webkitgtk:browserOptions", value: ["args": .array((browserArguments + extra).map { .string($0) })])]
    }

    /// Opens a session on `driver`; a browser PageScript started is prepared first and handed
    /// the session afterwards (its calls then go past the driver where allowed).
    public static func newSession(on driver: LocalDriver, capabilities: JSONValue, timeout: Double) async throws -> WebDriverSession {
        try await driver.browser?.prepareForSession(driver: driver.process)
        let session = try await driver.client.newSession(capabilities: capabilities, timeout: timeout)
        driver.browser?.sessionStarted(session, driver: driver.process)
        return session
    }
}
