import Engines

extension Engine {
    /// The driver a client of the bench's own (the protocol floor, Selenium) starts for this
    /// engine, found where PageScript finds it (``Engines/EngineProgramLocator``: on `PATH`, and
    /// geckodriver also in PageScript's engine folder, where the set-up puts it).
    ///
    /// - Throws: ``BenchmarkError/peerUnavailable(reason:)`` when the driver is not installed, or
    ///   for Safari, which the bench does not measure.
    func benchDriver() throws(BenchmarkError) -> String {
        let name: String
        switch self {
        case .webkit: name = "WebKitWebDriver"
        case .chromium: name = "chromedriver"
        case .firefox: name = "geckodriver"
        case .safari: throw .peerUnavailable(reason: "the bench does not measure Safari")
        }
        guard let path = EngineProgramLocator.find(name) else {
            throw .peerUnavailable(reason: "\(name) is not on PATH or in \(EngineProgramLocator.ownFolder); \(installHint)")
        }
        return path
    }

    /// The browser a client of the bench's own names to the driver: Chromium and Firefox are told
    /// their binary, as PageScript's sessions tell it; WebKit's driver starts its own browser.
    var benchBrowser: String? {
        switch self {
        case .chromium: EngineProgramLocator.find("chromium") ?? "chromium"
        case .firefox: EngineProgramLocator.find("firefox-esr") ?? "firefox-esr"
        case .webkit, .safari: nil
        }
    }
}
