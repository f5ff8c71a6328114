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

    func validate() throws {
        if let webDriverURL, remoteEndpoint == nil {
            throw ValidationError("--webdriver-url must be an http or https URL, got '\(webDriverURL)'")
        }
        if browserName != nil, webDriverURL == nil {
            throw ValidationError("--browser only applies to a remote endpoint given with --webdriver-url; for a local engine use --engine")
        }
    }

    /// The engine choice.
    func choice() -> EngineChoice {
        remoteEndpoint.map { .remote($0, browserName: browserName) } ?? .local(engine)
    }

    private var remoteEndpoint: URL? {
        guard let webDriverURL, let url = URL(string: webDriverURL), let scheme = url.scheme?.lowercased(),
              ["http", "https"].contains(scheme), url.host?.isEmpty == false else { return nil }
        return url
    }
}

extension Engine: ExpressibleByArgument {}
