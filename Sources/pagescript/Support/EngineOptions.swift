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

    func validate() throws {
        if let webDriverURL, remoteEndpoint == nil {
            throw ValidationError("--webdriver-url must be an http or https URL, got '\(webDriverURL)'")
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
