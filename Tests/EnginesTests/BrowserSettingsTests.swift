import Engines
import SystemSupport
import Testing

/// How the user's browser settings are read, merged into PageScript's capabilities and refused.
struct BrowserSettingsTests {
    @Test func theUsersArgumentsFollowPageScriptsOwnAndNothingIsDropped() throws {
        var settings = BrowserSettings()
        settings.capabilities = try BrowserSettings.capabilities(parsing: #"{"goog:chromeOptions":{"args":["--mute-audio"],"prefs":{"a":1}},"cloud:options":{"user":"me"}}"#)
        settings.userAgent = "Check/1"
        settings.proxy = try BrowserSettings.Proxy(parsing: "socks5://127.0.0.1:1080")
        let own: JSONValue = ["goog:chromeOptions": ["binary": "/usr/bin/chromium", "args": ["--headless=new", "--no-sandbox"]]]
        let merged = settings.mergedCapabilities(own, engine: .chromium, browserName: nil)
        let arguments = merged["goog:chromeOptions"]?["args"]?.arrayValue?.compactMap(\.stringValue)
        #expect(arguments == ["--headless=new", "--no-sandbox", "--user-agent=Check/1", "--mute-audio"])
        #expect(merged["goog:chromeOptions"]?["binary"] == "/usr/bin/chromium")
        #expect(merged["goog:chromeOptions"]?["prefs"]?["a"] == 1)
        #expect(merged["cloud:options"]?["user"] == "me")
        #expect(merged["proxy"] == ["proxyType": "manual", "socksProxy": "127.0.0.1:1080", "socksVersion": 5])
    }

    @Test func aRemoteBrowsersUserAgentGoesWhereItsDriverReadsIt() {
        var settings = BrowserSettings()
        settings.userAgent = "Check/1"
        let firefox = settings.mergedCapabilities(["browserName": "firefox"], engine: nil, browserName: "firefox")
        #expect(firefox["moz:firefoxOptions"]?["prefs"]?["general.useragent.override"] == "Check/1")
        #expect(settings.problem(engine: nil, browserName: "firefox") == nil)
        #expect(settings.problem(engine: nil, browserName: nil)?.contains("needs --browser chrome") == true)
        #expect(settings.webKitBrowserArguments == ["--user-agent=Check/1"])
    }

    @Test func headersAndCookiesAreCheckedAndScoped() throws {
        let header = try BrowserSettings.Header(parsing: "X-Team:  search ")
        #expect(header.name == "X-Team" && header.value == "search")
        #expect(throws: BrowserSettingsProblem.self) { try BrowserSettings.Header(parsing: "X-Team: a\nX-Evil: b") }
        #expect(throws: BrowserSettingsProblem.self) { try BrowserSettings.Header(parsing: "no colon") }
        let cookie = try BrowserSettings.Cookie(parsing: "id=42; Domain=.example.com; Path=/shop")
        #expect(cookie.name == "id" && cookie.value == "42" && cookie.domain == "example.com" && cookie.path == "/shop")
        #expect(throws: BrowserSettingsProblem.self) { try BrowserSettings.Cookie(parsing: "id=42") }
        #expect(throws: BrowserSettingsProblem.self) { try BrowserSettings.Cookie(parsing: "id=42; Domain=example.com; Expires=never") }
        #expect(throws: BrowserSettingsProblem.self) { try BrowserSettings.Proxy(parsing: "http://127.0.0.1") }
    }

    @Test func whatWouldBreakPageScriptIsRefused() throws {
        for (json, engine) in [(#"{"timeouts":{"script":1}}"#, Engine.chromium), (#"{"alwaysMatch":{}}"#, .webkit),
                               (#"{"goog:chromeOptions":{"args":["--remote-debugging-port=9"]}}"#, .chromium),
                               (#"{"webkitgtk:browserOptions":{"binary":"/bin/true"}}"#, .webkit)] {
            var settings = BrowserSettings()
            settings.capabilities = try BrowserSettings.capabilities(parsing: json)
            #expect(settings.problem(engine: engine, browserName: nil) != nil, "\(json)")
        }
    }
}
