import ArgumentParser
import Engines

/// What `run` and `batch` ask of the browser beyond where it runs: `--capabilities`,
/// `--user-agent`, `--header`, `--cookie` and `--proxy` (``Engines/BrowserSettings``), for a
/// local engine and a remote endpoint alike. What the chosen engine cannot do is refused at once.
struct BrowserSettingsOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("More capabilities for new sessions, as a JSON object, merged into PageScript's own (a browser's args are added to PageScript's): credentials, browser options.", valueName: "json"))
    var capabilities: String?

    @Option(name: .customLong("user-agent"), help: ArgumentHelp("The User-Agent pages get and send (navigator.userAgent).", valueName: "text"))
    var userAgent: String?

    @Option(name: .customLong("header"), help: ArgumentHelp("Chromium: add this request header to every request, 'NAME: VALUE' (repeatable).", valueName: "name:value"))
    var headers: [String] = []

    @Option(name: .customLong("cookie"), help: ArgumentHelp("Chromium: set this cookie before the first page, 'NAME=VALUE; Domain=HOST[; Path=/P]'; it goes to HOST and its subdomains only (repeatable).", valueName: "cookie"))
    var cookies: [String] = []

    @Option(name: .long, help: ArgumentHelp("Send every request through this proxy: http://HOST:PORT or socks5://HOST:PORT.", valueName: "url"))
    var proxy: String?

    func validate() throws {
        _ = try parsed()
    }

    /// The settings, checked against where `engineOptions` open pages.
    func settings<Window: BrowserWindowChoice>(for engineOptions: EngineOptions<Window>) throws -> BrowserSettings {
        let settings = try parsed()
        let local = engineOptions.webDriverURL == nil ? engineOptions.engine : nil
        if let problem = settings.problem(engine: local, browserName: engineOptions.browserName, attached: engineOptions.attach != nil) {
            throw ValidationError(problem)
        }
        return settings
    }

    /// The options as ``Engines/BrowserSettings``, or what is wrong with one of them.
    private func parsed() throws -> BrowserSettings {
        var settings = BrowserSettings()
        do throws(BrowserSettingsProblem) {
            if let capabilities { settings.capabilities = try BrowserSettings.capabilities(parsing: capabilities) }
            settings.headers = try headers.map { text throws(BrowserSettingsProblem) in try BrowserSettings.Header(parsing: text) }
            settings.cookies = try cookies.map { text throws(BrowserSettingsProblem) in try BrowserSettings.Cookie(parsing: text) }
            if let proxy { settings.proxy = try BrowserSettings.Proxy(parsing: proxy) }
        } catch {
            throw ValidationError(error.description)
        }
        if let userAgent {
            guard !userAgent.isEmpty, !userAgent.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
                throw ValidationError("--user-agent takes one line of text, without control characters")
            }
            settings.userAgent = userAgent
        }
        return settings
    }
}
