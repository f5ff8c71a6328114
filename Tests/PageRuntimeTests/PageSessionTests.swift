import Engines
import Foundation
import ScriptConsole
import SystemSupport
import TestSupport
import Testing
@testable import PageRuntime

/// The runtime on real engines: one browser per engine, many scripts on its pages.
@Suite(.serialized)
struct PageSessionTests {
    static let page = """
        <!doctype html><html><head><title>Fixture</title></head>
        <body><a id="first" class="link main" href="#x">x</a><input id="q" class="search" name="q"><p>text</p>
        <iframe src="/child"></iframe></body></html>
        """
    static let child = "<!doctype html><title>Child</title><p id=\"inner\" class=\"a b\">child</p>"

    @Test(arguments: PageFixtures.engines)
    func runsScriptsAndDescribesTheirValues(engine: Engine) async throws {
        let server = try LoopbackServer(pages: ["/": Self.page, "/child": Self.child])
        defer { server.stop() }
        let url = server.url("/")
        try await PageFixtures.onPage(engine, server) { page in
            let context = try await page.context()
            // The HTTP status is the loopback server's 200.
            #expect(context == (try PageContext(url: url, title: "Fixture", httpStatus: 200)))

            let undefinedResult = try await page.script("var declared = 1;")
            #expect(undefinedResult.value == nil)
            #expect(undefinedResult.error == nil)

            let values = try await page.script("""
                return (async () => {
                  const cyclic = {name: "c"}; cyclic.self = cyclic;
                  const frame = document.querySelector("iframe");
                  if (frame.contentDocument.readyState !== "complete") { await new Promise(resolve => frame.addEventListener("load", resolve)); }
                  return { node: document.getElementById("first"), input: document.querySelector("input"), map: new Map([["k", 1]]),
                    set: new Set([1, 2]), cyclic, nan: NaN, big: 10n, fn: function named() {}, date: new Date(0),
                    list: document.querySelectorAll("a"), inner: frame.contentDocument.getElementById("inner"), win: window,
                    text: document.querySelector("p").firstChild, re: /a+/g, error: new TypeError("bad") };
                })()
                """)
            #expect(values.error == nil, "\(String(describing: values.error))")
            #expect(values.value?["node"] == ["$node": "<a#first.link.main>"])
            #expect(values.value?["input"] == ["$node": "<input#q.search name=q>"])
            #expect(values.value?["map"] == ["k": 1])
            #expect(values.value?["set"] == [1, 2])
            #expect(values.value?["cyclic"]?["self"] == "[Circular]")
            #expect(values.value?["nan"] == "NaN")
            #expect(values.value?["big"] == "10")
            #expect(values.value?["fn"] == "[Function: named]")
            #expect(values.value?["date"] == "1970-01-01T00:00:00.000Z")
            #expect(values.value?["list"] == [["$node": "<a#first.link.main>"]])
            #expect(values.value?["inner"] == ["$node": "<p#inner.a.b>"], "a node from an iframe is a node like any other")
            #expect(values.value?["win"] == ["$window": .string(url)])
            #expect(values.value?["text"] == ["$node": "#text \"text\""])
            #expect(values.value?["re"] == "/a+/g")
            #expect(values.value?["error"] == ["name": "TypeError", "message": "bad"])

            let thrown = try await page.script("throw 5")
            #expect(thrown.error?.name == "Uncaught")
            #expect(thrown.error?.message == "5")

            let nested = try await page.script("function inner() {\n  return undefinedName + 1;\n}\n\ninner()")
            #expect(nested.error?.name == "ReferenceError")
            #expect(nested.error?.line == 2)

            let asyncLogs = try await page.script("return (async () => { await null; console.log('later'); return 7 })()")
            #expect(asyncLogs.value == 7)
            #expect(asyncLogs.console == [ConsoleMessage(level: .log, message: "later")])

            let lexical = try await page.script("let scoped = 1; return scoped")
            let again = try await page.script("let scoped = 2; return scoped")
            #expect(lexical.value == 1)
            #expect(again.value == 2, "each run has its own scope")

            await #expect(throws: InjectionError.pageChanged(expected: url + "elsewhere", actual: url)) {
                _ = try await page.script("window.ranAnyway = true", requiredURL: url + "elsewhere")
            }
            let notRun = try await page.script("return window.ranAnyway === true")
            #expect(notRun.value == false, "a refused script must not run")

            let entryIsInert = try await page.session.executeScript("""
                var names = Object.getOwnPropertyNames(window).filter(function (name) { return name.indexOf("pagescript_") === 0; });
                return names.map(function (name) { var entry = window[name]; delete window[name]; window[name] = 1; return [typeof entry, entry("wrong key", ["{}"]), typeof window[name]]; });
                """)
            #expect(entryIsInert == [["function", .null, "function"]], "the entry point does nothing without its key and cannot be replaced")
            #expect(try await page.script("return 3").value == 3, "runs go on after the page tried")
        }
    }

    /// Safari's contract: the extension evaluates Action.js, calls `run` with a completion
    /// function, and later `finalize({customJavaScript})`, which runs the text in the page.
    @Test(arguments: PageFixtures.engines)
    func safarisRunAndFinalizeStillWork(engine: Engine) async throws {
        let server = try LoopbackServer(pages: ["/": Self.page, "/child": Self.child])
        defer { server.stop() }
        let source = try ActionScript.source()
        let driver = """
            var reported = null;
            ExtensionPreprocessingJS.run({ completionFunction: function (results) { reported = results; } });
            ExtensionPreprocessingJS.finalize({ customJavaScript: "window.fromTheExtension = document.title.length" });
            return [reported.title, reported.URL, window.fromTheExtension];
            """
        let outcome = try await PageFixtures.withPage(engine, url: server.url("/")) { page -> JSONValue? in
            try? await page.session.executeScript(source + "\n" + driver)
        }
        #expect(outcome == ["Fixture", .string(server.url("/")), 7])
    }

    @Test func theSameActionJSIsSentEveryTime() throws {
        let source = try ActionScript.source()
        #expect(source.contains("var ExtensionPreprocessingJS = new Action;"))
        #expect(source.contains("parameters.completionFunction({ \"URL\": document.URL, \"title\": document.title })"))
        let compact = try ActionScript.compactSource()
        #expect(!compact.contains("\n//"))
        #expect(compact.utf8.count < source.utf8.count)
    }

    /// Compacting drops blank lines and whole-line comments and trims what
    /// `CharacterSet.whitespaces` holds (tabs, spaces, other space separators) from both ends of
    /// a line, nothing else: not a comment after code, not a `//` inside a line.
    @Test func compactingTrimsLinesAndDropsCommentLines() throws {
        let source = "\t  var a = 1; // kept\n\n   // dropped\n\u{00A0}\u{3000}b();\u{2003}\n\t\t\nc()\n  '//' + d\n\u{3000}\nx = 'é'\u{2003}\ny = '😀'\n"
        #expect(ActionScript.compact(source) == "var a = 1; // kept\nb();\nc()\n'//' + d\nx = 'é'\ny = '😀'")
        // What Foundation's trimming gives, on this text and on Action.js itself.
        func trimmedByFoundation(_ text: String) -> String {
            text.split(separator: "\n", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("//") }.joined(separator: "\n")
        }
        #expect(ActionScript.compact(source) == trimmedByFoundation(source))
        let actionJS = try ActionScript.source()
        #expect(ActionScript.compact(actionJS) == trimmedByFoundation(actionJS))
    }

    @Test(arguments: [
        ("http://example.com/", "http://example.com/"),
        ("https://example.com/a?b#c", "https://example.com/a?b#c"),
        ("about:blank", "about:blank"),
        ("About:Blank", "about:blank"),
        ("data:text/html,<title>Hi</title>", "data:text/html,<title>Hi</title>"),
    ])
    func keepsAbsoluteURLs(input: String, expected: String) throws {
        #expect(try PageAddress.resolve(input) == expected)
    }

    @Test(arguments: ["javascript:alert(1)", "ftp://example.com/", "http://", "", "no-such-file.html", "http://exa\u{1B}mple.com/",
                      "about:config", "data:text/html"])
    func refusesWhatIsNotAPage(input: String) {
        #expect(throws: InjectionError.self) { try PageAddress.resolve(input, currentDirectory: "/nonexistent") }
    }

    /// What a user types without a scheme gets a suggestion in their terms, not a remark about
    /// a scheme called `127.0.0.1`.
    @Test(arguments: [
        ("127.0.0.1:8765/x", "did you mean http://127.0.0.1:8765/x?"),
        ("localhost:3000", "did you mean http://localhost:3000?"),
        ("example.com/page", "did you mean https://example.com/page?"),
    ])
    func suggestsASchemeForAnAddressWithoutOne(input: String, suggestion: String) {
        #expect {
            try PageAddress.resolve(input, currentDirectory: "/nonexistent")
        } throws: { error in
            guard case let InjectionError.invalidURL(_, reason) = error else { return false }
            return reason.contains(suggestion)
        }
    }

    @Test func turnsALocalFileIntoAFileURL() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pagescript-address-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "<title>x</title>".write(to: folder.appendingPathComponent("page.html"), atomically: true, encoding: .utf8)
        #expect(try PageAddress.resolve("page.html", currentDirectory: folder.path) == folder.appendingPathComponent("page.html").absoluteString)
    }
}
