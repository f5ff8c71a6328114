/// How PageScript starts a local browser: unseen (the default) or on the user's display, with a
/// throwaway profile (the default) or one that persists; or, for Chromium, which running browser
/// of the user's it attaches to instead of starting one.
///
/// ```swift
/// let options = LaunchOptions(display: .user(":0"), profileDirectory: "/home/ada/.config/pagescript-chromium")
/// let engine = try await BrowserEngine.start(.chromium, options: options)
/// ```
public struct LaunchOptions: Sendable, Hashable {
    /// Where the browser's window goes.
    public enum Display: Sendable, Hashable {
        /// Nowhere anyone sees: Chromium headless, WebKit on a private X server.
        case hidden
        /// On this X display (the user's `$DISPLAY`), as a window the user can use.
        case user(String)
    }

    /// Where the browser's window goes.
    public var display: Display
    /// A browser profile folder that outlives the session (cookies, logins); `nil` for a
    /// throwaway profile removed when the engine stops. Chromium only: WebKit's automation
    /// sessions are always ephemeral.
    public var profileDirectory: String?
    /// `HOST:PORT` of a Chromium the user started with `--remote-debugging-port=PORT`, to attach
    /// to instead of starting a browser (chromedriver's `goog:chromeOptions.debuggerAddress`);
    /// `nil` to start one. An attached browser is never closed: its sessions are never deleted
    /// (see ``WebDriverSession/leavesBrowserOpen``), only the driver PageScript started is stopped.
    public var attachAddress: String?
    /// WebKit: whether scripts go to PageScript's MiniBrowser past the driver (the default; see
    /// ``WebKitBrowser``). `false` links the driver straight to the browser where the system
    /// allows it and sends every command through the driver: the best a plain WebDriver client
    /// gets, which the bench compares with.
    public var scriptsPastTheDriver: Bool
    /// Whether the browser may be asked for a picture of its page (`run --screenshot`). A browser
    /// that never is renders more cheaply (``ChromiumLauncher/arguments(headless:takesScreenshots:language:)``).
    public var takesScreenshots: Bool
    /// The language the browser tells pages (`--lang`; by default the user's locale's, else
    /// `en-US`). Not for a browser PageScript attaches to, which keeps its own.
    public var language: BrowserLanguage
    /// The size of the area pages are drawn in, given to every session's window
    /// (``WebDriverSession/fit(_:timeout:)``) when asked (`--viewport`); `nil` leaves the window
    /// as the engine opens it, since resizing WebKit's window slows every session's first load.
    /// Not for a browser PageScript attaches to, whose windows are the user's.
    public var viewport: Viewport?
    /// What the user asks of the browser (`--capabilities`, `--user-agent`, `--header`,
    /// `--cookie`, `--proxy`); nothing by default.
    public var settings: BrowserSettings

    public init(display: Display = .hidden, profileDirectory: String? = nil, attachAddress: String? = nil,
                scriptsPastTheDriver: Bool = true, takesScreenshots: Bool = true, language: BrowserLanguage = .fromEnvironment(),
                viewport: Viewport? = nil, settings: BrowserSettings = BrowserSettings()) {
        self.display = display
        self.profileDirectory = profileDirectory
        self.attachAddress = attachAddress
        self.scriptsPastTheDriver = scriptsPastTheDriver
        self.takesScreenshots = takesScreenshots
        self.language = language
        self.viewport = viewport
        self.settings = settings
    }

    /// The host and port of an `--attach` address (`127.0.0.1:9222`, `localhost:9222`,
    /// `[::1]:9222`), or `nil` when it is not `HOST:PORT` with a port from 1 to 65535.
    public static func hostAndPort(ofAttachAddress address: String) -> (host: String, port: UInt16)? {
        guard let colon = address.lastIndex(of: ":") else { return nil }
        var host = String(address[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty, !host.contains(where: { $0.isWhitespace || $0 == "/" }),
              let port = UInt16(address[address.index(after: colon)...]), port > 0 else { return nil }
        return (host, port)
    }
}
