import Foundation
import SystemSupport

/// Chromium's command line, in one place: the browser's arguments and the driver's, the
/// capabilities a session asks chromedriver for, and the start of a chromedriver. `run`, `edit`,
/// `browse` (``BrowserEngine/start(_:timeout:path:options:)``), a batch's session pool and the
/// bench's peers all take their arguments from here, so a run and a batch visit get the same
/// browser.
///
/// ```swift
/// let driver = try await ChromiumLauncher.startDriver(executable: "/usr/bin/chromedriver", environment: environment)
/// let capabilities = ChromiumLauncher.sessionCapabilities(binary: "/usr/bin/chromium", profile: folder)
/// ```
public enum ChromiumLauncher {
    /// The browser's arguments, apart from its profile folder: headless unless a window is
    /// wanted, a fixed window size, the language, nothing that runs at first start, and
    /// `--no-sandbox` when run as root (Chromium's sandbox refuses root).
    ///
    /// - Parameters:
    ///   - headless: `false` for a window on the user's display (`--headed`, `browse`); a
    ///     headless window gives pages ``Viewport/standard``.
    ///   - takesScreenshots: `false` for a browser that will never be asked for a picture of
    ///     its page (a batch): the renderer then also composites on its main thread
    ///     (`--disable-threaded-compositing`). Right after a load, the first frame's compositing
    ///     on a thread of its own competes with the page's main thread for the CPU, and on a
    ///     machine with few cores the first call into the page waits for it. Nothing a page or a
    ///     script sees changes; but headless Chromium then never answers a screenshot request.
    ///   - language: The language pages are told: `--accept-lang` (which headless Chromium takes
    ///     `navigator.language` and `Accept-Language` from) and `--lang`.
    public static func arguments(headless: Bool = true, takesScreenshots: Bool = true, language: BrowserLanguage = .fromEnvironment()) -> [String] {
        let window = headless ? "\(Viewport.standard.width),\(Viewport.standard.height + headlessFrameHeight)" : "1280,1024"
        var arguments = ["--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                         "--no-default-browser-check", "--disable-extensions", "--window-size=\(window)",
                         "--lang=\(language.tag)", "--accept-lang=\(language.acceptLanguages)"]
        if headless { arguments.insert("--headless=new", at: 0) }
        if geteuid() == 0 { arguments.append("--no-sandbox") }
        if !takesScreenshots { arguments.append("--disable-threaded-compositing") }
        return arguments
    }

    /// How much of a headless window's height goes to the browser's own bars, which headless
    /// Chromium lays out as a visible one would: a headless window is sized to give pages
    /// ``Viewport/standard``.
    static let headlessFrameHeight = 143

    /// The arguments of a browser PageScript talks to over DevTools without a driver
    /// (``ChromiumProcess``): a DevTools port of its own choosing, its profile, its first page.
    static func debuggingArguments(profile: String, initialURL: String) -> [String] {
        ["--remote-debugging-port=0", "--user-data-dir=\(profile)", initialURL]
    }

    /// chromedriver's arguments: its port, and connections from loopback only.
    static func driverArguments(port: UInt16) -> [String] {
        ["--port=\(port)", "--allowed-ips=127.0.0.1"]
    }

    /// Starts a chromedriver on a free loopback port and waits until it is ready.
    public static func startDriver(executable: String, environment: [String: String], timeout: Double = 30,
                                   logPath: String? = nil) async throws(EngineError) -> LocalDriver {
        try await LocalDriver.start(engine: .chromium, executable: executable, arguments: { driverArguments(port: $0) },
                                    environment: environment, timeout: timeout, logPath: logPath)
    }

    /// The `goog:chromeOptions` capability of a session whose browser chromedriver starts: the
    /// browser at `binary`, with ``arguments(headless:takesScreenshots:language:)`` and `profile`.
    public static func sessionCapabilities(binary: String, profile: String, headless: Bool = true, takesScreenshots: Bool = true,
                                           language: BrowserLanguage = .fromEnvironment()) -> [(key: String, value: JSONValue)] {
        let arguments = (arguments(headless: headless, takesScreenshots: takesScreenshots, language: language) + ["--user-data-dir=\(profile)"])
            .map { JSONValue.string($0) }
        return [(key: "goog:chromeOptions", value: ["binary": .string(binary), "args": .array(arguments)])]
    }

    /// The `goog:chromeOptions` capability of a session on the user's own Chromium, at `address`
    /// (its `--remote-debugging-port`).
    static func attachCapabilities(address: String) -> [(key: String, value: JSONValue)] {
        [(key: "goog:chromeOptions", value: ["debuggerAddress": .string(address)])]
    }
}
