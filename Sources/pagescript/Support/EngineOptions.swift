import ArgumentParser
import Foundation
import Injection
import WebDriver

/// The options that choose where pages open, shared by every command that opens one.
struct EngineOptions: ParsableArguments {
    @Option(name: .long, help: "The engine.")
    var engine: Engine = .webkit

    @Option(name: .customLong("webdriver-url"), help: ArgumentHelp("Use a remote W3C WebDriver endpoint (a Selenium Grid, a browser cloud) instead of a local engine.", valueName: "url"))
    var webDriverURL: String?

    @Option(name: .customLong("browser"), help: ArgumentHelp("With --webdriver-url: the browserName to ask for (chrome, firefox, safari, MicrosoftEdge).", valueName: "name"))
    var browserName: String?

    @Flag(name: .long, help: "Open the browser as a window on your display ($DISPLAY) instead of hidden.")
    var headed = false

    @Option(name: .long, help: ArgumentHelp("Chromium: keep the browser profile (cookies, logins) in this folder between runs.", valueName: "folder"))
    var profile: String?

    func validate() throws {
        if headed, webDriverURL != nil {
            throw ValidationError("--headed starts a local browser; a remote endpoint (--webdriver-url) decides its own windows")
        }
        if headed, (ProcessInfo.processInfo.environment["DISPLAY"] ?? "").isEmpty {
            throw ValidationError("--headed needs a display, and $DISPLAY is not set: run PageScript in your desktop session (or under xvfb-run)")
        }
        if profile != nil, webDriverURL != nil {
            throw ValidationError("--profile is for a local browser; a remote endpoint keeps its own profiles")
        }
        if profile != nil, engine != .chromium {
            throw ValidationError("--profile is only available with --engine chromium: WebKit's automation sessions are always ephemeral")
        }
        if let webDriverURL, remoteEndpoint == nil {
            throw ValidationError("--webdriver-url must be an http or https URL, got '\(webDriverURL)'")
        }
        if browserName != nil, webDriverURL == nil {
            throw ValidationError("--browser only applies to a remote endpoint given with --webdriver-url; for a local engine use --engine")
        }
    }

    /// The engine choice.
    func choice() -> EngineChoice {
        remoteEndpoint.map { .remote($0, browserName: browserName) } ?? .local(engine, options: launchOptions)
    }

    /// `--headed` and `--profile`, for a local engine.
    var launchOptions: LaunchOptions {
        let display = headed ? ProcessInfo.processInfo.environment["DISPLAY"].map(LaunchOptions.Display.user) ?? .hidden : .hidden
        let folder = profile.map { URL(fileURLWithPath: $0).standardizedFileURL.path(percentEncoded: false) }
        return LaunchOptions(display: display, profileDirectory: folder)
    }

    private var remoteEndpoint: URL? {
        guard let webDriverURL, let url = URL(string: webDriverURL), let scheme = url.scheme?.lowercased(),
              ["http", "https"].contains(scheme), url.host?.isEmpty == false else { return nil }
        return url
    }
}

extension Engine: ExpressibleByArgument {}
