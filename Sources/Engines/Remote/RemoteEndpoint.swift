import Foundation
import SystemSupport
import WebDriver

extension BrowserEngine {
    /// Uses a remote W3C endpoint; nothing is started locally.
    ///
    /// - Parameters:
    ///   - endpoint: The endpoint's base URL, e.g. `http://grid.example:4444/wd/hub`.
    ///   - browserName: The `browserName` capability to ask for (`chrome`, `firefox`, `safari`), if any.
    ///   - settings: What the user asks of the endpoint's browsers (``BrowserSettings``).
    public static func remote(endpoint: URL, browserName: String? = nil, settings: BrowserSettings = BrowserSettings()) -> BrowserEngine {
        let capabilities = remoteCapabilities(browserName: browserName)
        return BrowserEngine(
            engine: nil, client: WebDriverClient(endpoint: endpoint, connectTimeout: 5),
            sessionCapabilities: settings.mergedCapabilities(.object(capabilities), engine: nil, browserName: browserName), processes: [], driverLogPath: nil,
            settings: settings)
    }
}

extension BrowserEngine {
    /// PageScript's own capabilities for a remote endpoint's sessions: the `browserName` asked
    /// for, and for Firefox and the Chromium family WebDriver BiDi beside classic WebDriver
    /// (`webSocketUrl`), whose preload scripts run `document-start` scripts (every geckodriver,
    /// chromedriver, msedgedriver and Selenium Grid 4 node offers it; other browsers are not
    /// asked, since an endpoint that does not know the capability may refuse the session).
    public static func remoteCapabilities(browserName: String?) -> [(key: String, value: JSONValue)] {
        guard let browserName else { return [] }
        var capabilities: [(key: String, value: JSONValue)] = [(key: "browserName", value: .string(browserName))]
        if Self.browsersOfferingBiDi.contains(browserName.lowercased()) {
            capabilities.append((key: "webSocketUrl", value: .bool(true)))
        }
        return capabilities
    }

    /// The `browserName`s whose drivers offer WebDriver BiDi when asked.
    static let browsersOfferingBiDi: Set<String> = ["firefox", "chrome", "chromium", "microsoftedge", "msedge"]

    /// What a remote endpoint's refusal of a new session means to the user: the driver's words,
    /// and where the browser it started died at once (a chromedriver running as root starts
    /// Chromium without `--no-sandbox`, which then exits; one on a machine without a display
    /// needs `--headless`), what to give it.
    public static func remoteRefusal(_ error: WebDriverError) -> String {
        guard case let .protocolError(code: .sessionNotCreated, message, _) = error else { return error.description }
        let died = ["Chrome instance exited", "Chrome failed to start", "DevToolsActivePort"].contains { message.contains($0) }
        guard died else { return "the endpoint refused a session: \(message)" }
        return "the endpoint's browser exited as it started (\(message)). A chromedriver running as root or without a display starts "
            + "Chromium only with --no-sandbox and --headless=new: give them with "
            + #"--capabilities '{"goog:chromeOptions":{"args":["--headless=new","--no-sandbox"]}}'"#
    }
}
