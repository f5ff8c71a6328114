import ArgumentParser
import Foundation
import Injection
import WebDriver

/// The options that choose where pages open, shared by every command that opens one.
struct EngineOptions: ParsableArguments {
    @Option(name: .long, help: "The engine: webkit (default), chromium or safari.")
    var engine: Engine = .webkit

    @Option(name: .customLong("webdriver-url"), help: "Use a remote W3C WebDriver endpoint (a Selenium Grid, a browser cloud) instead of a local engine.")
    var webDriverURL: String?

    @Option(name: .customLong("browser"), help: "With --webdriver-url: the browserName to ask for (chrome, firefox, safari, MicrosoftEdge).")
    var browserName: String?

    /// The engine choice, or a usage error.
    func choice() throws -> EngineChoice {
        guard let webDriverURL else { return .local(engine) }
        guard let url = URL(string: webDriverURL), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
              url.host?.isEmpty == false else {
            throw ValidationError("--webdriver-url must be an http or https URL, got '\(webDriverURL)'")
        }
        return .remote(url, browserName: browserName)
    }
}

extension Engine: ExpressibleByArgument {}
