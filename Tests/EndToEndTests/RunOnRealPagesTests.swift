import Foundation
import SystemSupport
import TestSupport
import Testing

/// `pagescript run` on pages as real sites serve them (strict CSP), and when runs go wrong:
/// messages, exit codes and the `--json` object, on both engines.
@Suite(.serialized)
struct RunOnRealPagesTests {
    static let engines = ["webkit", "chromium"]
    static let policy = ["Content-Security-Policy": "script-src 'self'; style-src 'self'"]

    let server: LoopbackServer

    init() throws {
        server = try LoopbackServer(responses: [
            "/": LoopbackResponse(html: "<!doctype html><html><head><title>Strict</title></head><body><h1>Hi</h1><p class=\"intro\">text</p></body></html>",
                                  headers: Self.policy),
            "/other": LoopbackResponse(html: "<!doctype html><title>Other</title>", headers: Self.policy),
        ])
    }

    /// Runs `pagescript run` with a process marker and checks that nothing it started survives.
    func run(_ arguments: [String], input: String? = nil) async throws -> PageScriptBinary.Outcome {
        let marker = ProcessProbe.newMarker()
        let outcome = try await PageScriptBinary.outcome(of: ["run"] + arguments, input: input, environment: [marker.name: marker.value])
        let leftovers = ProcessProbe.processes(withEnvironment: marker.name, value: marker.value)
        #expect(leftovers.isEmpty, "still running after pagescript \(arguments): \(leftovers)")
        return outcome
    }

    func jsonObject(_ outcome: PageScriptBinary.Outcome) async throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any], "\(outcome.standardOutput)")
    }

    @Test(arguments: engines)
    func scriptsRunUnderAStrictPolicy(engine: String) async throws {
        let value = try await run([server.url(), "-e", "document.querySelector('.intro').textContent + ' ' + document.title", "--engine", engine])
        #expect(value.status == 0, "\(value.standardError)")
        #expect(value.standardOutput == "\"text Strict\"\n")

        let file = FileManager.default.temporaryDirectory.appendingPathComponent("pagescript-\(UUID().uuidString).js")
        try "const heading = document.querySelector('h1')\nconsole.log('found', heading)\nawait null\nheading.textContent\n".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let fromFile = try await run([server.url(), "-f", file.path, "--engine", engine])
        #expect(fromFile.status == 0, "\(fromFile.standardError)")
        #expect(fromFile.standardOutput == "\"Hi\"\n")
        #expect(fromFile.standardError.contains("console.log: found <h1>"))

        let object = try await run([server.url(), "-e", "{title: document.title, n: 1}", "--engine", engine])
        #expect(object.standardOutput == "{\"title\":\"Strict\",\"n\":1}\n")
    }

    @Test(arguments: engines)
    func aTopLevelReturnIsExplainedAtItsPosition(engine: String) async throws {
        let outcome = try await run([server.url(), "-e", "return document.title", "--engine", engine])
        #expect(outcome.status == 1)
        #expect(outcome.standardError.contains("SyntaxError"))
        #expect(outcome.standardError.contains("`return` is only valid inside a function"))
        #expect(outcome.standardError.contains("(line 1, column 1)"))
        #expect(outcome.standardOutput.isEmpty)
    }

    @Test(arguments: engines)
    func messagesAreTextNeverEscapedLineBreaks(engine: String) async throws {
        let outcome = try await run([server.url(), "-e", "console.log('one\\ntwo'); throw new Error('first\\nsecond\\n')", "--engine", engine])
        #expect(outcome.status == 1)
        #expect(!outcome.standardError.contains("\\n"), "\(outcome.standardError)")
        #expect(outcome.standardError.contains("console.log: one\n  two\n"))
        #expect(outcome.standardError.contains("Error: first\nsecond (line 1"))
    }

    @Test(arguments: engines)
    func consoleMethodsAreShownInJSONAndText(engine: String) async throws {
        let script = "console.group('g'); console.table([{a: 1}]); console.groupEnd(); console.count(); console.assert(false, 'no'); 1"
        let json = try await run([server.url(), "-e", script, "--json", "--engine", engine])
        let console = try #require(try await jsonObject(json)["console"] as? [[String: Any]])
        #expect(console.map { $0["level"] as? String } == ["group", "table", "count", "assert"])
        #expect(console[1]["depth"] as? Int == 1)
        let table = try #require(console[1]["table"] as? [String: Any])
        #expect(table["columns"] as? [String] == ["(index)", "a"])
        #expect(table["rows"] as? [[String]] == [["0", "1"]])
        let text = try await run([server.url(), "-e", script, "--engine", engine])
        #expect(text.standardError.contains("console.group: g\n  console.table: [{\"a\":1}]\n    (index) | a\n    0       | 1\n"))
        #expect(text.standardError.contains("console.assert: Assertion failed: no"))
    }

    @Test(arguments: engines)
    func dialogsAreAnsweredByTheOption(engine: String) async throws {
        let dismissed = try await run([server.url(), "-e", "alert('hi'); confirm('sure?')", "--json", "--engine", engine])
        #expect(try await jsonObject(dismissed)["value"] as? Bool == false)
        let dialogs = try #require(try await jsonObject(dismissed)["dialogs"] as? [[String: Any]])
        #expect(dialogs.map { $0["message"] as? String } == ["hi", "sure?"])
        let accepted = try await run([server.url(), "-e", "[confirm('sure?'), prompt('name?', 'Ada')]", "--dialogs", "accept", "--engine", engine])
        #expect(accepted.standardOutput == "[true,\"Ada\"]\n")
        #expect(accepted.standardError.contains("confirm: sure? -> accepted"))
    }

    @Test(arguments: engines)
    func aPageThatNavigatesAwayExitsOneWithTheNewAddress(engine: String) async throws {
        let outcome = try await run([server.url(), "-e", "location.href = '/other'; await new Promise(() => {})", "--engine", engine])
        #expect(outcome.status == 1, "\(outcome.standardError)")
        #expect(outcome.standardError.contains("the page navigated away while the script ran; it is now at \(server.url("/other"))"))
    }

    @Test(arguments: engines)
    func aTimeoutStillPrintsTheJSONObjectWithTheConsoleSoFar(engine: String) async throws {
        let outcome = try await run([server.url(), "-e", "console.log('before'); await new Promise(() => {})", "--json", "--timeout", "3",
                                 "--load-timeout", "60", "--engine", engine])
        #expect(outcome.status == 4)
        let object = try await jsonObject(outcome)
        #expect(object["title"] as? String == "Strict")
        #expect((object["console"] as? [[String: Any]])?.first?["message"] as? String == "before")
        let error = try #require(object["error"] as? [String: Any])
        #expect(error["name"] as? String == "Timeout")
        #expect(error["message"] as? String == "the script did not finish within 3 s")
    }

    @Test(arguments: engines)
    func aPageThatDoesNotLoadExitsTwoWithTheReason(engine: String) async throws {
        let closed = try RefusingPort()
        defer { closed.stop() }
        let url = closed.url("/")
        let outcome = try await run([url, "-e", "1", "--json", "--engine", engine])
        #expect(outcome.status == 2, "\(outcome.standardError)")
        #expect(outcome.standardError.contains("could not open \(url)"))
        #expect(outcome.standardError.lowercased().contains("refused"))
        let error = try #require(try await jsonObject(outcome)["error"] as? [String: Any])
        #expect(error["name"] as? String == "NavigationFailed")
    }

    @Test(arguments: engines)
    func oneTimeoutCoversLoadingTheScriptAndAll(engine: String) async throws {
        let silent = try SilentListener()
        defer { silent.stop() }
        let outcome = try await run(["http://127.0.0.1:\(silent.port)/", "-e", "1", "--timeout", "5", "--engine", engine])
        #expect(outcome.status == 4, "\(outcome.standardError)")
        #expect(outcome.standardError.contains("did not load within 5 s"))
        #expect(outcome.seconds < 30, "a hang guard, not a timing assertion")
    }

    @Test(arguments: [("0", "got 0"), ("-5", "got -5"), ("abc", "abc")])
    func timeoutsMustBePositive(value: String, detail: String) async throws {
        let outcome = try await PageScriptBinary.outcome(of: ["run", server.url(), "-e", "1", "--timeout", value])
        #expect(outcome.status == 2)
        #expect(outcome.standardError.contains("--timeout"))
        #expect(outcome.standardError.contains(detail))
        #expect(!outcome.standardError.contains("Missing value"))
    }
}
