import Foundation
import SystemSupport
import WebDriver

/// Firefox's start, in one place: geckodriver's arguments, the `moz:firefoxOptions` a session
/// asks for (the browser, headless or not, its window, language and preferences) and the start
/// of a geckodriver. ``BrowserEngine/start(_:timeout:path:options:)`` and a batch's session pool
/// (a driver per slot: geckodriver holds one session at a time) both start Firefox through it.
///
/// geckodriver makes each session's profile in the folder it is given (`--profile-root`), which
/// PageScript makes per engine and removes at the end, so a browser that had to be killed leaves
/// no profile behind.
///
/// ```swift
/// let driver = try await FirefoxLauncher.startDriver(executable: "geckodriver", profileRoot: folder, environment: environment)
/// let capabilities = FirefoxLauncher.sessionCapabilities(binary: "/usr/bin/firefox-esr")
/// ```
public enum FirefoxLauncher {
    /// The least time a new session is given, in seconds: a fresh Firefox profile's first start
    /// does far more work than Chromium's or WebKit's, and on a loaded machine it outlasts the
    /// other engines' start-up time, so the session would be given up while it is nearly ready.
    public static let sessionStartAllowance: Double = 60

    /// How much of a headless window's height goes to the browser's own bars, which headless
    /// Firefox lays out as a visible one would: a headless window is sized to give pages
    /// ``Viewport/standard``.
    static let headlessFrameHeight = 86

    /// The browser's arguments: headless unless a window is wanted, then a window that gives
    /// pages ``Viewport/standard``; a kept profile with `-profile`.
    public static func arguments(headless: Bool, profile: String?) -> [String] {
        var arguments: [String] = []
        if headless {
            arguments += ["-headless", "--width=\(Viewport.standard.width)", "--height=\(Viewport.standard.height + headlessFrameHeight)"]
        }
        if let profile { arguments += ["-profile", profile] }
        return arguments
    }

    /// The preferences every session's profile gets beyond geckodriver's own: the language pages
    /// are told (`navigator.language`, `Accept-Language`), and nothing that runs at a first start
    /// or reaches the network by itself.
    public static func preferences(language: BrowserLanguage) -> [(key: String, value: JSONValue)] {
        [
            (key: "intl.accept_languages", value: .string(language.acceptLanguages)),
            (key: "browser.shell.checkDefaultBrowser", value: .bool(false)),
            (key: "browser.startup.homepage_override.mstone", value: .string("ignore")),
            (key: "datareporting.policy.dataSubmissionEnabled", value: .bool(false)),
            (key: "toolkit.telemetry.reportingpolicy.firstRun", value: .bool(false)),
            (key: "app.update.disabledForTesting", value: .bool(true)),
            (key: "browser.safebrowsing.update.enabled", value: .bool(false)),
            (key: "extensions.update.enabled", value: .bool(false)),
            (key: "network.captive-portal-service.enabled", value: .bool(false)),
            (key: "network.connectivity-service.enabled", value: .bool(false)),
        ]
    }

    /// geckodriver's arguments: its port on loopback, where it makes profiles, and a BiDi port of
    /// its own (the default, 9222, is Chromium's usual debugging port, and two drivers would share it).
    static func driverArguments(port: UInt16, profileRoot: String, webSocketPort: UInt16) -> [String] {
        ["--port", "\(port)", "--host", "127.0.0.1", "--profile-root", profileRoot, "--websocket-port", "\(webSocketPort)"]
    }

    /// Starts a geckodriver on a free loopback port, making profiles in `profileRoot`, and waits
    /// until it is ready.
    public static func startDriver(executable: String, profileRoot: String, environment: [String: String], timeout: Double = 30,
                                   logPath: String? = nil) async throws(EngineError) -> LocalDriver {
        let webSocketPort: UInt16
        do {
            webSocketPort = try FreePort.next()
        } catch {
            throw .failedToStart(engine: .firefox, reason: "no free port: \(error)")
        }
        return try await LocalDriver.start(engine: .firefox, executable: executable,
                                           arguments: { driverArguments(port: $0, profileRoot: profileRoot, webSocketPort: webSocketPort) },
                                           environment: environment, timeout: timeout, logPath: logPath)
    }

    /// The capabilities of a session whose browser geckodriver starts: the browser at `binary`,
    /// with ``arguments(headless:profile:)`` and ``preferences(language:)``, and WebDriver BiDi.
    ///
    /// `downloads`: where the browser saves what it downloads by itself (an address PageScript
    /// was sent to that is a download), a folder removed with the session; Firefox would otherwise
    /// put it in the user's own downloads folder, where a headless Chromium saves nothing. `nil`
    /// for a browser a person uses (headed, or with a profile of their own), whose downloads go
    /// where that profile says.
    public static func sessionCapabilities(binary: String, headless: Bool = true, profile: String? = nil, downloads: String? = nil,
                                           language: BrowserLanguage = .fromEnvironment()) -> [(key: String, value: JSONValue)] {
        var prefs = preferences(language: language)
        if let downloads {
            prefs += [
                (key: "browser.download.folderList", value: .integer(2)),
                (key: "browser.download.dir", value: .string(downloads)),
                (key: "browser.download.useDownloadDir", value: .bool(true)),
            ]
        }
        return [
            (key: "browserName", value: .string("firefox")),
            // WebDriver BiDi beside classic WebDriver: `document-start` scripts are its preload scripts.
            (key: "webSocketUrl", value: .bool(true)),
            (key: "moz:firefoxOptions", value: [
                "binary": .string(binary),
                "args": .array(arguments(headless: headless, profile: profile).map { .string($0) }),
                "prefs": .object(prefs),
            ]),
        ]
    }

    /// The environment of a driver and its browsers: temporary files in `temporaryFolder`
    /// (removed with the engine), on X display `display` for a visible browser.
    public static func environment(temporaryFolder: String, display: String?,
                            base: [String: String] = ProcessInfo.processInfo.environment) -> [String: String] {
        var environment = base
        environment["TMPDIR"] = temporaryFolder
        if let display { environment["DISPLAY"] = display }
        // A hidden browser needs no display; one of the user's must not be taken for its own.
        if display == nil { environment["DISPLAY"] = nil; environment["WAYLAND_DISPLAY"] = nil }
        environment["MOZ_CRASHREPORTER_DISABLE"] = "1"
        return environment
    }
}
