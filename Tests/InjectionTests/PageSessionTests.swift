import Foundation
import Injection
import Testing
import TestSupport
import WebDriver

/// The Action.js protocol on real engines: one browser per engine, many scripts on its page.
@Suite(.serialized)
struct PageSessionTests {
    static let page = """
        <!doctype html><html><head><title>Fixture</title></head>
        <body><a id="first" class="link main" href="#x">x</a><p>text</p></body></html>
        """
    static let hostilePage = """
        <!doctype html><html><head><title>Hostile</title></head><body><script>
        console.log = function() { throw new Error("page's console"); };
        </script></body></html>
        """
    static let lyingPage = """
        <!doctype html><html><head><title>Liar</title></head><body><script>
        JSON.stringify = function() { return "{not json"; };
        </script></body></html>
        """

    @Test(arguments: [Engine.webkit, Engine.chromium])
    func runsScriptsThroughActionJS(engine: Engine) async throws {
        let server = try LoopbackServer(pages: ["/": Self.page, "/hostile": Self.hostilePage, "/liar": Self.lyingPage])
        defer { server.stop() }
        let url = server.url("/")
        try await PageRunner.withPage(on: .local(engine), url: url, scriptTimeout: 10) { page, context throws(PageRunner.Failure) in
            do throws(InjectionError) {
                #expect(context == (try PageContext(url: url, title: "Fixture")))

                let undefinedResult = try await page.run(script: "var declared = 1;")
                #expect(undefinedResult.value == nil)
                #expect(undefinedResult.error == nil)

                let values = try await page.run(script: """
                    const cyclic = {name: "c"}; cyclic.self = cyclic;
                    ({ node: document.getElementById("first"), map: new Map([["k", 1]]), set: new Set([1, 2]),
                       cyclic, nan: NaN, big: 10n, fn: function named() {}, date: new Date(0), list: document.querySelectorAll("a") })
                    """)
                #expect(values.value?["node"] == "<a id=\"first\" class=\"link main\">")
                #expect(values.value?["map"] == ["k": 1])
                #expect(values.value?["set"] == [1, 2])
                #expect(values.value?["cyclic"]?["self"] == "[Circular]")
                #expect(values.value?["nan"] == "NaN")
                #expect(values.value?["big"] == "10")
                #expect(values.value?["fn"] == "[Function: named]")
                #expect(values.value?["date"] == "1970-01-01T00:00:00.000Z")
                #expect(values.value?["list"] == ["<a id=\"first\" class=\"link main\">"])

                let logged = try await page.run(script: """
                    console.info("info"); console.error("bad", {a: 1}); console.debug("%s is %d", "x", 42); "done"
                    """)
                #expect(logged.console == [
                    ConsoleMessage(level: .info, message: "info"),
                    ConsoleMessage(level: .error, message: "bad {\"a\":1}"),
                    ConsoleMessage(level: .debug, message: "x is 42"),
                ])
                let restored = try? await page.session.executeScript("return console.log.toString().includes('lines.push')")
                #expect(restored == .bool(false), "console was not restored after the run")

                let thrown = try await page.run(script: "throw 5")
                #expect(thrown.error?.name == "Uncaught")
                #expect(thrown.error?.message == "5")

                let nested = try await page.run(script: "function inner() {\n  return undefinedName + 1;\n}\n\ninner()")
                #expect(nested.error?.name == "ReferenceError")
                #expect(nested.error?.line == 2)

                let asyncLogs = try await page.run(script: "(async () => { await null; console.log('later'); return 7 })()")
                #expect(asyncLogs.value == 7)
                #expect(asyncLogs.console == [ConsoleMessage(level: .log, message: "later")])

                let lexical = try await page.run(script: "let scoped = 1; scoped")
                let again = try await page.run(script: "let scoped = 2; scoped")
                #expect(lexical.value == 1)
                #expect(again.value == 2, "each run has its own lexical scope")

                await #expect(throws: InjectionError.pageChanged(expected: url + "elsewhere", actual: url)) {
                    _ = try await page.run(script: "window.ranAnyway = true", requiredURL: url + "elsewhere")
                }
                let notRun = try await page.run(script: "window.ranAnyway === true")
                #expect(notRun.value == false, "a refused script must not run")

                let hostileContext = try await page.open(server.url("/hostile"))
                #expect(hostileContext.title == "Hostile")
                let capturedDespitePage = try await page.run(script: "console.log('mine'); 1")
                #expect(capturedDespitePage.console == [ConsoleMessage(level: .log, message: "mine")])

                // A page that breaks JSON.stringify breaks the driver's own serialisation too: the
                // result is a clear error, never a hang or a made-up value.
                await #expect {
                    _ = try await page.open(server.url("/liar"))
                    _ = try await page.run(script: "1")
                } throws: { error in
                    switch error as? InjectionError {
                    case .malformedReply?, .webDriver(.protocolError(code: .unknownError, _, _))?, .webDriver(.protocolError(code: .javascriptError, _, _))?: true
                    default: false
                    }
                }
            } catch {
                throw .injection(error)
            }
        }
    }

    @Test func theSameActionJSIsSentEveryTime() throws {
        let source = try ActionScript.source()
        #expect(source.contains("var ExtensionPreprocessingJS = new Action;"))
        #expect(source.contains("completionFunction({ \"URL\": document.URL, \"title\": document.title })"))
    }

    @Test(arguments: [
        ("http://example.com/", "http://example.com/"),
        ("https://example.com/a?b#c", "https://example.com/a?b#c"),
    ])
    func keepsAbsoluteURLs(input: String, expected: String) throws {
        #expect(try PageAddress.resolve(input) == expected)
    }

    @Test(arguments: ["javascript:alert(1)", "ftp://example.com/", "http://", "", "no-such-file.html", "http://exa\u{1B}mple.com/"])
    func refusesWhatIsNotAPage(input: String) {
        #expect(throws: InjectionError.self) { try PageAddress.resolve(input, currentDirectory: "/nonexistent") }
    }

    @Test func turnsALocalFileIntoAFileURL() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pagescript-address-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "<title>x</title>".write(to: folder.appendingPathComponent("page.html"), atomically: true, encoding: .utf8)
        #expect(try PageAddress.resolve("page.html", currentDirectory: folder.path) == folder.appendingPathComponent("page.html").absoluteString)
    }
}
