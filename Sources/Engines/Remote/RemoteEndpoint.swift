import Foundation
import SystemSupport
import WebDriver

extension BrowserEngine {
    /// Uses a remote W3C endpoint; nothing is started locally.
    ///
    /// - Parameters:
    ///   - endpoint: The endpoint's base URL, e.g. `http://grid.example:4444/wd/hub`.
    ///   - browserName: The `browserName` capability to ask for (`chrome`, `firefox`, `safari`), if any.
    public static func remote(endpoint: URL, browserName: String? = nil) -> BrowserEngine {
        var capabilities: [(key: String, value: JSONValue)] = []
        if let browserName { capabilities.append((key: "browserName", value: .string(browserName))) }
        return BrowserEngine(
            engine: nil, client: WebDriverClient(endpoint: endpoint, connectTimeout: 5),
            sessionCapabilities: .object(capabilities), processes: [], driverLogPath: nil)
    }
}
