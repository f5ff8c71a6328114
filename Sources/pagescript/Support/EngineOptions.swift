import ArgumentParser
import Engines
import Foundation
import PageRuntime

/// The options that choose where pages open, shared by every command that opens one.
struct EngineOptions<Window: BrowserWindowChoice>: ParsableArguments {
    @Option(name: .customLong("engine"), help: ArgumentHelp(Window.engineHelp))
    var chosenEngines: EngineSelection?

    @Option(name: .customLong("webdriver-url"), help: ArgumentHelp("Use a remote W3C WebDriver endpoint (a Selenium Grid, a browser cloud) instead of a local engine.", valueName: "url"))
    var webDriverURL: String?

    @Option(name: .customLong("browser"), help: ArgumentHelp("With --webdriver-url: the browserName to ask for (chrome, firefox, safari, MicrosoftEdge).", valueName: "name"))
    var browserName: String?

    @Flag(name: .long, help: ArgumentHelp("Open the browser as a window on your display ($DISPLAY) instead of hidden.", visibility: Window.visibility))
    var headed = false

    @Option(name: .long, help: ArgumentHelp("Chromium, Firefox: keep the browser profile (cookies, logins) in this folder between runs.", valueName: "folder",
                                            visibility: Window.visibility))
    var profile: String?

    @Option(name: .long, help: ArgumentHelp("Attach to the Chromium you started with --remote-debugging-port=PORT --user-data-dir=DIR, at HOST:PORT; it is never closed.",
                                            valueName: "host:port", visibility: Window.visibility))
    var attach: String?

    @Option(name: .customLong("lang"), help: ArgumentHelp("The language the browser tells pages (navigator.language, Accept-Language), such as de-DE; default: your locale's, else en-US.", valueName: "tag"))
    var language: String?

    @Flag(name: .customLong("bypass-csp"), help: "Chromium: switch off the page's own Content-Security-Policy, so that its inline scripts and eval run too. This weakens the page; without it your scripts still run under a strict policy.")
    var bypassesContentSecurityPolicy = false

    /// The engine: `--engine`, else Chromium when attaching (only Chromium can be attached to), else WebKit.
    var engine: Engine {
        chosenEngines?.named.first ?? (attach == nil ? .webkit : .chromium)
    }

    func validate() throws {
        try validateEngineList()
        if let attach {
            try validateAttach(attach)
        }
        if headed, webDriverURL != nil {
            throw ValidationError("--headed starts a local browser; a remote endpoint (--webdriver-url) decides its own windows")
        }
        if headed, (ProcessInfo.processInfo.environment["DISPLAY"] ?? "").isEmpty {
            throw ValidationError("--headed needs a display, and $DISPLAY is not set: run PageScript in your desktop session (or under xvfb-run)")
        }
        if profile != nil, webDriverURL != nil {
            throw ValidationError("--profile is for a local browser; a remote endpoint keeps its own profiles")
        }
        if profile != nil, engine != .chromium, engine != .firefox {
            throw ValidationError("--profile is only available with --engine chromium or firefox: WebKit's automation sessions are always ephemeral")
        }
        if let webDriverURL, remoteEndpoint == nil {
            throw ValidationError("--webdriver-url must be an http or https URL, got '\(webDriverURL)'")
        }
        if bypassesContentSecurityPolicy, webDriverURL == nil, engine != .chromium {
            throw ValidationError("--bypass-csp works only with Chromium: \(engine.displayName)'s driver has no way to switch off a page's Content-Security-Policy; your scripts run under the policy without it")
        }
        if let language, BrowserLanguage(language) == nil {
            throw ValidationError("--lang takes a language tag such as en-US, de or pt-BR; got '\(language)'")
        }
        if language != nil, webDriverURL != nil || attach != nil {
            throw ValidationError("--lang sets the language of a browser PageScript starts; a remote endpoint's or your own browser keeps its own")
        }
        if browserName != nil, webDriverURL == nil {
            throw ValidationError("--browser only applies to a remote endpoint given with --webdriver-url; for a local engine use --engine")
        }
    }

    private func validateAttach(_ address: String) throws {
        if engine != .chromium {
            throw ValidationError("""
                --attach works only with Chromium: \(engine.displayName)'s driver always starts a browser of its own and cannot \
                take over one you started. Start Chromium with --remote-debugging-port=9222 --user-data-dir=DIR and use \
                --attach 127.0.0.1:9222, or leave out --attach to let PageScript open the browser
                """)
        }
        if webDriverURL != nil {
            throw ValidationError("--attach uses a local chromedriver to reach your browser; leave out --webdriver-url")
        }
        if headed || profile != nil {
            throw ValidationError("--attach uses your browser as it is, with its own window and profile; leave out --headed and --profile")
        }
        if LaunchOptions.hostAndPort(ofAttachAddress: address) == nil {
            throw ValidationError("--attach takes HOST:PORT, the browser's --remote-debugging-port, such as 127.0.0.1:9222; got '\(address)'")
        }
    }

    /// The engine choice; `takingScreenshots: false` for a browser never asked for a picture,
    /// which then renders as a batch's does; its windows draw pages at `viewport`; its browsers
    /// get `settings` (``BrowserSettingsOptions``).
    func choice(takingScreenshots: Bool = true, viewport: Viewport? = nil, settings: BrowserSettings = BrowserSettings()) -> EngineChoice {
        var options = launchOptions
        options.takesScreenshots = takingScreenshots
        options.viewport = viewport
        options.settings = settings
        return remoteEndpoint.map { .remote($0, browserName: browserName, settings: settings) } ?? .local(engine, options: options)
    }

    /// `--headed`, `--profile` and `--attach`, for a local engine.
    var launchOptions: LaunchOptions {
        let display = headed ? ProcessInfo.processInfo.environment["DISPLAY"].map(LaunchOptions.Display.user) ?? .hidden : .hidden
        let folder = profile.map { URL(fileURLWithPath: $0).standardizedFileURL.path(percentEncoded: false) }
        return LaunchOptions(display: display, profileDirectory: folder, attachAddress: attach,
                             language: language.flatMap(BrowserLanguage.init) ?? .fromEnvironment())
    }

    private var remoteEndpoint: URL? {
        guard let webDriverURL, let url = URL(string: webDriverURL), let scheme = url.scheme?.lowercased(),
              ["http", "https"].contains(scheme), url.host?.isEmpty == false else { return nil }
        return url
    }
}

extension Engine: ExpressibleByArgument {}
