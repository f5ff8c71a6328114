import SystemSupport
import WebDriver

extension BrowserSettings {
    /// Why these settings cannot be had from a local `engine` (attached to the user's own browser
    /// when `attached`) or, when `engine` is `nil`, from a remote endpoint asked for `browserName`;
    /// `nil` when they can. Nothing is dropped silently: what an engine cannot do is refused here.
    public func problem(engine: Engine?, browserName: String?, attached: Bool = false) -> String? {
        if let problem = capabilitiesProblem(engine: engine) { return problem }
        if attached, !capabilities.isEmpty || userAgent != nil || proxy != nil || !cookies.isEmpty {
            return "--capabilities, --user-agent, --proxy and --cookie set up a browser PageScript starts; the one you --attach to keeps "
                + "its own switches and profile (start it with --user-agent=... or --proxy-server=... yourself)"
        }
        switch engine {
        case .safari?:
            if userAgent != nil || proxy != nil || needsSessionCommands {
                return "safaridriver has no way to set --user-agent, --proxy, --header or --cookie; Safari takes them from the system's settings"
            }
        case .webkit?:
            if !headers.isEmpty {
                return "--header works only with Chromium and Firefox: WebKitGTK's driver has no way to add request headers (no DevTools, "
                    + "no WebDriver BiDi); use --engine chromium or firefox, or --user-agent and --lang for those two headers"
            }
            if !cookies.isEmpty {
                return "--cookie works only with Chromium and Firefox: WebKitGTK's driver can add a cookie only to the page it has open, "
                    + "so the first request to each site would go without it; use --engine chromium or firefox"
            }
        case .chromium?, .firefox?:
            break
        case nil:
            let browser = browserName?.lowercased()
            if userAgent != nil, RemoteBrowser(browser) == nil {
                return "--user-agent with --webdriver-url needs --browser chrome, MicrosoftEdge or firefox, whose options carry it; "
                    + "for another browser give its own setting in --capabilities"
            }
            if needsSessionCommands, browser == "safari" {
                return "--header and --cookie need a browser whose driver passes DevTools commands on (Chromium's) or speaks WebDriver BiDi "
                    + "(Firefox's); safaridriver does neither"
            }
        }
        return nil
    }

    /// What in `--capabilities` would break PageScript, or takes an option of its own.
    private func capabilitiesProblem(engine: Engine?) -> String? {
        let keys = Set(capabilities.map(\.key))
        if !keys.isDisjoint(with: ["alwaysMatch", "firstMatch", "capabilities"]) {
            return "--capabilities takes the capabilities themselves (what goes in alwaysMatch), not a new-session request"
        }
        if keys.contains("timeouts") {
            return "--capabilities must not set timeouts: PageScript sets them from --timeout and --load-timeout"
        }
        if keys.contains("unhandledPromptBehavior") {
            return "--capabilities must not set unhandledPromptBehavior: PageScript answers and reports the page's dialogs itself (--dialogs)"
        }
        if proxy != nil, keys.contains("proxy") {
            return "give the proxy once: --proxy or a proxy capability in --capabilities"
        }
        let chromeArguments = JSONValue.object(capabilities)["goog:chromeOptions"]?["args"]?.arrayValue?.compactMap(\.stringValue) ?? []
        if engine == .chromium {
            if chromeArguments.contains(where: { $0.hasPrefix("--user-data-dir") }) {
                return "--capabilities must not give Chromium a --user-data-dir: PageScript gives each browser its profile (keep one with --profile)"
            }
            if chromeArguments.contains(where: { $0.hasPrefix("--remote-debugging-") }) {
                return "--capabilities must not give Chromium a --remote-debugging-* switch: chromedriver chooses how it reaches the browser"
            }
            if JSONValue.object(capabilities)["goog:chromeOptions"]?["debuggerAddress"] != nil {
                return "--capabilities must not give a debuggerAddress: to use a browser you started, give --attach HOST:PORT"
            }
        }
        if engine == .firefox {
            let firefoxArguments = JSONValue.object(capabilities)["moz:firefoxOptions"]?["args"]?.arrayValue?.compactMap(\.stringValue) ?? []
            if firefoxArguments.contains(where: { ["-profile", "--profile"].contains($0) }) {
                return "--capabilities must not give Firefox a -profile: geckodriver makes each session's profile (keep one with --profile)"
            }
            if JSONValue.object(capabilities)["moz:firefoxOptions"]?["binary"] != nil {
                return "--capabilities must not give Firefox a binary: PageScript starts the firefox-esr it finds (put another first on PATH)"
            }
        }
        if engine == .webkit, case let .object(options)? = JSONValue.object(capabilities)["webkitgtk:browserOptions"],
           options.contains(where: { $0.key != "args" }) {
            return "--capabilities may give webkitgtk:browserOptions only args: PageScript starts the MiniBrowser its WebKitWebDriver names"
        }
        return nil
    }

    /// The arguments PageScript's MiniBrowser gets beyond its own: `--user-agent` and the `args`
    /// of `webkitgtk:browserOptions` in `--capabilities`.
    public var webKitBrowserArguments: [String] {
        let given = JSONValue.object(capabilities)["webkitgtk:browserOptions"]?["args"]?.arrayValue?.compactMap(\.stringValue) ?? []
        return (userAgent.map { ["--user-agent=\($0)"] } ?? []) + given
    }

    /// `base`, PageScript's own capabilities for a session of local `engine` (or, when `nil`, of a
    /// remote endpoint asked for `browserName`), with the proxy, the user agent and `--capabilities`
    /// merged in: objects member by member, arrays (a browser's `args`) one after the other, and
    /// for anything else the user's value. PageScript's own arguments stay.
    public func mergedCapabilities(_ base: JSONValue, engine: Engine?, browserName: String?) -> JSONValue {
        var added: [(key: String, value: JSONValue)] = []
        if let proxy { added.append((key: "proxy", value: proxy.capability)) }
        if let userAgent {
            switch engine {
            case .chromium?: added.append((key: "goog:chromeOptions", value: ["args": [.string("--user-agent=\(userAgent)")]]))
            case nil: if let browser = RemoteBrowser(browserName?.lowercased()) { added.append(browser.userAgentCapability(userAgent)) }
            case .firefox?: added.append(RemoteBrowser.firefox.userAgentCapability(userAgent))
            case .webkit?, .safari?: break
            }
        }
        // WebKit's browser arguments went to the MiniBrowser PageScript started (``webKitBrowserArguments``).
        let given = engine == .webkit ? capabilities.filter { $0.key != "webkitgtk:browserOptions" } : capabilities
        return Self.merge(Self.merge(base, .object(added)), .object(given))
    }

    /// `extra` merged into `base`: objects member by member, arrays concatenated, else `extra`.
    static func merge(_ base: JSONValue, _ extra: JSONValue) -> JSONValue {
        switch (base, extra) {
        case let (.object(own), .object(added)):
            var members = own
            for (key, value) in added {
                if let index = members.firstIndex(where: { $0.key == key }) {
                    members[index].value = merge(members[index].value, value)
                } else {
                    members.append((key: key, value: value))
                }
            }
            return .object(members)
        case let (.array(own), .array(added)):
            return .array(own + added)
        default:
            return extra
        }
    }

    /// Sets what a session must be told once it is open: the cookies (browser-wide) and the
    /// request headers, through chromedriver's DevTools passage (headers for the session's
    /// window) or, on a session that offers WebDriver BiDi and no DevTools (Firefox), BiDi's
    /// `storage.setCookie` and `network.setExtraHeaders` (headers for every window of the session).
    public func apply(to session: WebDriverSession, timeout: Double) async throws(BrowserSettingsProblem) {
        guard needsSessionCommands else { return }
        guard session.offersChromeDevTools else {
            guard session.offersBiDi else {
                throw BrowserSettingsProblem("--header and --cookie need a driver that passes DevTools commands on (chromedriver's "
                    + "goog/cdp/execute) or a session with WebDriver BiDi, and this one has neither: use a Chrome, Edge or Firefox endpoint")
            }
            try await applyThroughBiDi(to: session, timeout: timeout)
            return
        }
        do throws(WebDriverError) {
            if !cookies.isEmpty {
                let list = cookies.map { cookie -> JSONValue in
                    ["name": .string(cookie.name), "value": .string(cookie.value), "domain": .string(cookie.domain), "path": .string(cookie.path)]
                }
                _ = try await session.chromeDevTools("Network.setCookies", parameters: ["cookies": .array(list)], timeout: timeout)
            }
            if !headers.isEmpty {
                let joined = joinedHeaders.map { (key: $0.name, value: JSONValue.string($0.value)) }
                _ = try await session.chromeDevTools("Network.enable", timeout: timeout)
                _ = try await session.chromeDevTools("Network.setExtraHTTPHeaders", parameters: ["headers": .object(joined)], timeout: timeout)
            }
        } catch {
            throw BrowserSettingsProblem("the browser did not take --header or --cookie: \(error.description)")
        }
    }

    /// The headers to send, one per name: the values of a name given more than once joined with
    /// commas, in the order given, as HTTP joins them.
    private var joinedHeaders: [(name: String, value: String)] {
        var joined: [(name: String, value: String)] = []
        for header in headers {
            if let index = joined.firstIndex(where: { $0.name.lowercased() == header.name.lowercased() }) {
                joined[index].value += ", " + header.value
            } else {
                joined.append((name: header.name, value: header.value))
            }
        }
        return joined
    }

    /// ``apply(to:timeout:)`` on WebDriver BiDi: each cookie for its own domain, and the headers
    /// for every request of the session.
    private func applyThroughBiDi(to session: WebDriverSession, timeout: Double) async throws(BrowserSettingsProblem) {
        do throws(BiDiError) {
            let connection = try await session.bidi(timeout: timeout)
            for cookie in cookies {
                let value: JSONValue = ["type": "string", "value": .string(cookie.value)]
                _ = try await connection.send("storage.setCookie", parameters: [
                    "cookie": ["name": .string(cookie.name), "value": value, "domain": .string(cookie.domain), "path": .string(cookie.path)],
                ], timeout: timeout)
            }
            if !headers.isEmpty {
                let list = joinedHeaders.map { header -> JSONValue in ["name": .string(header.name), "value": ["type": "string", "value": .string(header.value)]] }
                _ = try await connection.send("network.setExtraHeaders", parameters: ["headers": .array(list)], timeout: timeout)
            }
        } catch {
            throw BrowserSettingsProblem("the browser did not take --header or --cookie: \(error.description)")
        }
    }
}

/// A remote browser whose options PageScript knows how to give a user agent.
private enum RemoteBrowser {
    case chrome
    case edge
    case firefox

    init?(_ name: String?) {
        switch name {
        case "chrome", "chromium", "googlechrome": self = .chrome
        case "microsoftedge", "msedge", "edge": self = .edge
        case "firefox": self = .firefox
        default: return nil
        }
    }

    func userAgentCapability(_ userAgent: String) -> (key: String, value: JSONValue) {
        switch self {
        case .chrome: (key: "goog:chromeOptions", value: ["args": [.string("--user-agent=\(userAgent)")]])
        case .edge: (key: "ms:edgeOptions", value: ["args": [.string("--user-agent=\(userAgent)")]])
        case .firefox: (key: "moz:firefoxOptions", value: ["prefs": ["general.useragent.override": .string(userAgent)]])
        }
    }
}
