import Engines
import Foundation
import SystemSupport
import TestSupport
import Testing

/// `--user-agent`, `--header`, `--cookie`, `--proxy`, `--capabilities` and a batch's
/// `--load-timeout`, end to end: the built binary, real engines, and a loopback server that sees
/// what the browser sent.
struct BrowserSettingsCommandTests {
    static let engines = ["webkit", "chromium"]

    /// A site that answers every request with a page, and records what came.
    static func site() throws -> LoopbackServer {
        try LoopbackServer { request in
            request.path == "/slow" ? .page("<!doctype html><title>Slow</title>", delay: 8) : .page("<!doctype html><title>Seen</title>")
        }
    }

    /// The records of a batch's standard output, one JSON object a line.
    static func records(_ text: String) throws -> [JSONValue] {
        try text.split(separator: "\n").map { try JSONValue(parsing: String($0)) }
    }

    @Test(arguments: engines)
    func userAgentReachesThePageAndTheServer(engine: String) async throws {
        let server = try Self.site()
        defer { server.stop() }
        let run = try await PageScriptBinary.outcome(of: ["run", server.url("/ua"), "-e", "navigator.userAgent", "--engine", engine,
                                                          "--user-agent", "PageScript-Check/1 (test)"])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput == "\"PageScript-Check/1 (test)\"\n")
        #expect(server.received.first { $0.path == "/ua" }?.header("User-Agent") == "PageScript-Check/1 (test)")

        let batch = try await PageScriptBinary.outcome(of: ["batch", "-", "-e", "navigator.userAgent", "--engine", engine, "--jobs", "1",
                                                            "--user-agent", "PageScript-Batch/2", "--quiet"], input: server.url("/batch-ua") + "\n")
        #expect(batch.status == 0, "\(batch.standardError)")
        #expect(try Self.records(batch.standardOutput).first?["value"]?.stringValue == "PageScript-Batch/2")
        #expect(server.received.first { $0.path == "/batch-ua" }?.header("User-Agent") == "PageScript-Batch/2")
    }

    /// Chromium through DevTools, Firefox through WebDriver BiDi.
    @Test(arguments: ["chromium", "firefox"])
    func theHeadersGoWithEveryRequestAndTheCookieOnlyToItsHost(engine: String) async throws {
        let server = try Self.site()
        defer { server.stop() }
        let arguments = ["--engine", engine, "--header", "X-Team: search", "--header", "X-Run:1", "--header", "X-Team: books",
                         "--cookie", "flavour=oat; Domain=localhost"]
        let run = try await PageScriptBinary.outcome(of: ["run", server.url("/run", host: "localhost"), "-e", "document.cookie"] + arguments)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput == "\"flavour=oat\"\n")
        let seen = try #require(server.received.first { $0.path == "/run" })
        #expect(seen.header("X-Team") == "search, books")
        #expect(seen.header("X-Run") == "1")
        #expect(seen.header("Cookie") == "flavour=oat")

        // In a batch, every page gets the headers; the cookie goes to its host alone.
        let list = server.url("/batch", host: "localhost") + "\n" + server.url("/other") + "\n"
        let batch = try await PageScriptBinary.outcome(of: ["batch", "-", "-e", "document.cookie", "--jobs", "1", "--quiet"] + arguments, input: list)
        #expect(batch.status == 0, "\(batch.standardError)")
        let own = try #require(server.received.first { $0.path == "/batch" })
        let other = try #require(server.received.first { $0.path == "/other" })
        #expect(own.header("X-Team") == "search, books" && other.header("X-Team") == "search, books")
        #expect(own.header("Cookie") == "flavour=oat")
        #expect(other.header("Cookie") == nil)
    }

    @Test func whatAnEngineCannotDoIsRefusedBeforeAnythingStarts() async throws {
        let cases: [([String], String)] = [
            (["--engine", "webkit", "--header", "X-Team: search"], "--header works only with Chromium and Firefox"),
            (["--engine", "webkit", "--cookie", "a=b; Domain=example.com"], "--cookie works only with Chromium and Firefox"),
            (["--engine", "chromium", "--cookie", "a=b"], "names no site"),
            (["--engine", "chromium", "--header", "X Team: search"], "is not a header name"),
            (["--engine", "chromium", "--header", "X-Team: a\r\nX-Evil: b"], "line break"),
            (["--engine", "chromium", "--proxy", "ftp://127.0.0.1:21"], "--proxy takes http://HOST:PORT"),
            (["--engine", "chromium", "--capabilities", "[1]"], "--capabilities takes a JSON object"),
            (["--engine", "chromium", "--capabilities", #"{"goog:chromeOptions":{"args":["--user-data-dir=/tmp/x"]}}"#], "--profile"),
            (["--engine", "chromium", "--capabilities", #"{"unhandledPromptBehavior":"accept"}"#], "--dialogs"),
            (["--webdriver-url", "http://127.0.0.1:9/", "--user-agent", "x"], "needs --browser chrome"),
        ]
        for (options, message) in cases {
            for command in [["run", "about:blank", "-e", "1"], ["batch", "-", "-e", "1"]] {
                let outcome = try await PageScriptBinary.outcome(of: command + options, input: "about:blank\n", environment: ["PATH": "/nonexistent"])
                #expect(outcome.status == 2, "\(command + options): \(outcome.standardError)")
                #expect(outcome.standardError.contains(message), "\(command + options): \(outcome.standardError)")
            }
        }
    }

    /// The proxy is the loopback server itself: a host that resolves nowhere loads only through it.
    @Test(arguments: engines)
    func pagesLoadThroughTheProxy(engine: String) async throws {
        let proxy = try LoopbackServer { request in .page("<!doctype html><title>Proxied \(request.target)</title>") }
        defer { proxy.stop() }
        let run = try await PageScriptBinary.outcome(of: ["run", "http://pagescript-proxied.invalid/page", "-e", "document.title",
                                                          "--engine", engine, "--proxy", proxy.url("")])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput == "\"Proxied http://pagescript-proxied.invalid/page\"\n")
        #expect(proxy.requestedPaths.contains("http://pagescript-proxied.invalid/page"))

        let batch = try await PageScriptBinary.outcome(of: ["batch", "-", "-e", "document.title", "--engine", engine, "--jobs", "1", "--quiet",
                                                            "--proxy", proxy.url("")], input: "http://pagescript-proxied.invalid/batch\n")
        #expect(batch.status == 0, "\(batch.standardError)")
        #expect(try Self.records(batch.standardOutput).first?["value"]?.stringValue == "Proxied http://pagescript-proxied.invalid/batch")
    }

    /// `--capabilities` on a local engine adds the user's browser arguments to PageScript's own,
    /// which stay (Chromium still starts headless, WebKit in automation mode).
    @Test(arguments: engines)
    func capabilitiesAddBrowserArgumentsOnALocalEngine(engine: String) async throws {
        let server = try Self.site()
        defer { server.stop() }
        let capabilities = engine == "chromium" ? #"{"goog:chromeOptions":{"args":["--user-agent=FromCapabilities/1"]}}"#
            : #"{"webkitgtk:browserOptions":{"args":["--user-agent=FromCapabilities/1"]}}"#
        for command in [["run", server.url("/caps")], ["batch", "-", "--quiet"]] {
            let outcome = try await PageScriptBinary.outcome(of: command + ["-e", "navigator.userAgent", "--engine", engine, "--capabilities", capabilities],
                                                             input: server.url("/caps") + "\n")
            #expect(outcome.status == 0, "\(outcome.standardError)")
            #expect(outcome.standardOutput.contains("FromCapabilities/1"), "\(outcome.standardOutput)")
        }
    }

    /// A chromedriver the user started as root starts Chromium only with --no-sandbox (and,
    /// without a display, --headless): `run` says so, and takes them with `--capabilities`.
    @Test func runTakesCapabilitiesForARemoteChromedriver() async throws {
        let server = try Self.site()
        defer { server.stop() }
        let folder = NSTemporaryDirectory() + "pagescript-settings-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let driver = try RemoteChromeDriver(folder: folder)
        defer { driver.stop() }
        if geteuid() == 0 {
            let bare = try await PageScriptBinary.outcome(of: ["run", server.url("/remote"), "-e", "1", "--webdriver-url", driver.endpoint],
                                                          environment: ["DISPLAY": ""])
            #expect(bare.status == 3, "\(bare.standardError)")
            #expect(bare.standardError.contains("--no-sandbox"), "\(bare.standardError)")
            #expect(!bare.standardError.contains("standard input"), "\(bare.standardError)")
        }
        let run = try await PageScriptBinary.outcome(of: ["run", server.url("/remote"), "-e", "navigator.userAgent", "--webdriver-url", driver.endpoint,
                                                          "--browser", "chrome", "--capabilities", driver.capabilities, "--user-agent", "Remote/3",
                                                          "--header", "X-Remote: yes"])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput == "\"Remote/3\"\n")
        #expect(server.received.last { $0.path == "/remote" }?.header("X-Remote") == "yes")
    }

    /// `--load-timeout` ends a slow page's load with a `timeout` record, well before `--timeout`.
    @Test(arguments: engines)
    func batchLoadTimeoutEndsASlowLoad(engine: String) async throws {
        let server = try Self.site()
        defer { server.stop() }
        let list = server.url("/slow") + "\n" + server.url("/fast") + "\n"
        let batch = try await PageScriptBinary.outcome(of: ["batch", "-", "-e", "document.title", "--engine", engine, "--jobs", "1", "--quiet",
                                                            "--retries", "0", "--timeout", "60", "--load-timeout", "2", "--ordered"], input: list)
        #expect(batch.status == 1, "\(batch.standardError)")
        let records = try Self.records(batch.standardOutput)
        #expect(records.first?["status"]?.stringValue == "timeout", "\(batch.standardOutput)")
        #expect(records.last?["status"]?.stringValue == "ok", "\(batch.standardOutput)")
        #expect(batch.seconds < 30)
    }
}
