@testable import PageRuntime
import SystemSupport
import Testing

/// Where the user's code sits in an Execute Script body, and the line arithmetic behind positions.
struct ScriptBodyTests {
    let entry = RuntimeEntry(name: "pagescript_abc", key: "k1", challenge: "c1", response: "r1")

    @Test func eachScriptStartsOnALineOfItsOwnAfterTwoConstantLines() throws {
        let first = try PreparedScript("a()\nb()", mode: .console)
        let second = try PreparedScript("c()", mode: .userscript)
        let body = try ScriptBody.run([first, second], entry: entry)
        let lines = body.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(body.placements == [ScriptBody.Placement(firstLine: 3, lineCount: 2), ScriptBody.Placement(firstLine: 6, lineCount: 1)])
        #expect(lines[0].hasPrefix("var pagescriptCall = function (key, request, scripts, api) { \"use strict\"; var entry = window[\"pagescript_abc\"]; "))
        #expect(lines[0].contains("entry(\"c1\") === \"r1\" ? entry(key, request, scripts, api) : \"pagescript:impostor \""))
        #expect(lines[1] == "return pagescriptCall(\"k1\", arguments, [function (console, alert, confirm, prompt) { return function () {")
        #expect(lines[2] == "a()")
        #expect(lines[3] == "return b()")
        #expect(lines[4] == "}; }, function (console, alert, confirm, prompt) { return function () {")
        #expect(lines[5] == "return c()")
        #expect(lines[6] == "}; }]);")
        #expect(lines.last == "//# sourceURL=pagescript-script.js")
        #expect(body.placements[1].scriptLine(forBodyLine: 6) == 1)
        #expect(body.placements[1].scriptLine(forBodyLine: 7) == nil)
        #expect(body.placements[0].scriptLine(forBodyLine: 2) == nil)
    }

    @Test func probesCutTheCodeOnlyBetweenTokensOutsideTemplates() throws {
        let script = try PreparedScript("x = `a${b + 1}c` + /* note */ 2", mode: .userscript)
        let code = Array(script.code.utf16)
        let tokens = script.tokenRanges().map { String(decoding: code[$0], as: UTF16.self) }
        #expect(tokens == ["return", "x", "=", "}c`", "+", "2"])
    }

    @Test func consoleCodeReturnsItsLastExpressionAndAwaitsAtTheTopLevel() throws {
        let plain = try PreparedScript("const t = document.title\nt.length", mode: .console)
        #expect(plain.code == "const t = document.title\nreturn t.length\n")
        #expect(!plain.isAsync)
        #expect(plain.originalPosition(line: 2, column: 10)! == (2, 3))
        let awaiting = try PreparedScript("await fetch('/')", mode: .console)
        #expect(awaiting.isAsync)
        #expect(throws: ScriptError.self) { try PreparedScript("return document.title", mode: .console) }
        #expect(try PreparedScript("return 1", mode: .userscript).code == "return 1\n")
    }

    @Test func aTopLevelReturnIsPlacedAndExplained() {
        do {
            _ = try PreparedScript("let a = 1;\n  return document.title", mode: .console)
            Issue.record("no error")
        } catch {
            #expect(error.name == "SyntaxError")
            #expect(error.line == 2)
            #expect(error.column == 3)
            #expect(error.message.contains("return"))
        }
    }

    @Test func aScriptEndingInALineCommentCannotSwallowTheClosingBrackets() throws {
        let script = try PreparedScript("1 // the end", mode: .console)
        let body = try ScriptBody.run([script], entry: entry)
        #expect(body.text.contains("return 1 // the end\n}; }]);"))
    }

    @Test(arguments: [
        ("", 1), ("a", 1), ("a\nb", 2), ("a\r\nb", 2), ("a\rb", 2), ("a\u{2028}b\u{2029}c", 3), ("a\n", 2), ("\r\n\r\n", 3),
    ])
    func countsLinesAsJavaScriptDoes(text: String, lines: Int) {
        #expect(JavaScriptLines.count(in: text) == lines)
    }

    @Test func findsTheLineAndColumnOfAnOffset() {
        let text = "let a = 1;\r\n  let x = ;"
        let offset = text.utf16.count - 1
        #expect(JavaScriptLines.position(ofOffset: offset, in: text) == (2, 11))
        #expect(JavaScriptLines.position(ofOffset: 0, in: text) == (1, 1))
    }

    @Test func theInstallationBodyCalibratesOnItsFirstLine() throws {
        let body = try ScriptBody.install(entry: entry, userscriptAPI: true)
        #expect(body.hasPrefix("var pagescriptCalibration = (function () { \"use strict\"; try { null.pagescript; }"))
        #expect(body.contains("return ExtensionPreprocessingJS.install(pagescriptCalibration, \"pagescript_abc\", \"c1\", \"r1\", \"k1\", arguments, PageScriptGM);"))
        #expect(body.contains("var PageScriptGM = (function() {"), "the GM API's page half travels with the runtime")
        #expect(!body.contains("\n//  "), "comments are not sent")
        let plain = try ScriptBody.install(entry: entry, userscriptAPI: false)
        #expect(plain.contains("return ExtensionPreprocessingJS.install(pagescriptCalibration, \"pagescript_abc\", \"c1\", \"r1\", \"k1\", arguments, null);"))
        #expect(!plain.contains("PageScriptGM"))
    }

    @Test func aRunBringsTheUserscriptAPIWhereTheRuntimeLacksIt() throws {
        let script = try PreparedScript("a()\nb()", mode: .userscript)
        let plain = try ScriptBody.run([script], entry: entry)
        let bringing = try ScriptBody.run([script], entry: entry, addingUserscriptAPI: true)
        #expect(!plain.text.contains("PageScriptGM"))
        #expect(bringing.text.hasPrefix("var PageScriptGM = (function() {"))
        #expect(bringing.text.contains("}; }], PageScriptGM);\n//# sourceURL=pagescript-script.js"))
        // The placements still name the lines the code is on.
        let lines = bringing.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let placement = try #require(bringing.placements.first)
        #expect(lines[placement.firstLine - 1] == "a()")
        #expect(lines[placement.lastLine - 1] == "return b()")
        #expect(placement.lineCount == plain.placements.first?.lineCount)
    }

    @Test func aRequestCanBeWrittenIntoTheBody() throws {
        let body = try ScriptBody.run([try PreparedScript("1", mode: .console)], entry: entry)
        let embedded = ScriptBody.embedding(["kind": "run"], in: body.text, entry: entry)
        #expect(embedded.contains("pagescriptCall(\"k1\", [\"{\\\"kind\\\":\\\"run\\\"}\"], [function"))
        #expect(embedded.components(separatedBy: "\n").count == body.text.components(separatedBy: "\n").count, "no line moves")
    }

    /// The sealed part of a userscript's request goes where the body reads `arguments`, once,
    /// with the code around it untouched, whatever scripts the code is written in.
    @Test func theSealedPartIsWrittenWhereTheBodyReadsItsArguments() throws {
        let code = "const é = '東京 🚀 , arguments';\né // \"k1\", arguments"
        let body = try ScriptBody.run([try PreparedScript(code, mode: .console)], entry: entry)
        let sealed: JSONValue = ["values": ["ключ": "値 🚀"]]
        let embedded = ScriptBody.embedding(sealed: sealed, in: body.text, entry: entry)
        let literal = JSONValue.string(sealed.serialized).serialized
        let marker = "\"k1\", arguments"
        let at = try #require(body.text.range(of: marker))
        #expect(embedded == body.text.replacingCharacters(in: at, with: "\"k1\", [arguments[0], " + literal + "]"))
        let codeLines = body.text.components(separatedBy: "\n").dropFirst(2).joined(separator: "\n")
        #expect(codeLines.contains("é // \"k1\", arguments"))
        #expect(embedded.hasSuffix("\n" + codeLines), "the code, with its own text like the marker, is as it was")
    }

    @Test(arguments: [
        ("ab, argumentsXY, arguments", ", arguments", "ab<>XY, arguments"),
        (", arguments", ", arguments", "<>"),
        ("日本, arguments🚀", ", arguments", "日本<>🚀"),
        ("nothing here", ", arguments", "nothing here"),
        ("", ", arguments", ""),
    ])
    func replacesTheFirstOccurrenceOnly(text: String, marker: String, expected: String) {
        #expect(ScriptBody.replacingFirst(marker, in: text, with: "<>") == expected)
    }

    @Test func entriesAreRandomAndDifferEveryTime() {
        let first = RuntimeEntry.random()
        let second = RuntimeEntry.random()
        #expect(first != second)
        #expect(first.name.hasPrefix("pagescript_"))
        #expect(first.key.count == 48)
    }

    @Test(arguments: [
        ("unknown error: net::ERR_CONNECTION_REFUSED\n  (Session info: chrome=156.0)", "connection refused (net::ERR_CONNECTION_REFUSED)"),
        ("unknown error: net::ERR_NAME_NOT_RESOLVED", "the host name could not be resolved (net::ERR_NAME_NOT_RESOLVED)"),
        ("unknown error: net::ERR_CERT_AUTHORITY_INVALID", "the server's certificate is not trusted (net::ERR_CERT_AUTHORITY_INVALID)"),
        ("unknown error: something else", "something else"),
    ])
    func explainsADriversLoadFailure(message: String, reason: String) {
        #expect(LoadFailure.reason(driverMessage: message) == reason)
    }

    /// Firefox's `browsingContext.navigate` fails with its network error, often before its error
    /// page is shown: the reason names the error page's code either way, as geckodriver's
    /// Navigate To did.
    @Test(arguments: [
        ("Error: NS_ERROR_UNKNOWN_HOST", nil, "the host name could not be resolved (dnsNotFound)"),
        ("Error: NS_ERROR_CONNECTION_REFUSED", "about:neterror?e=connectionFailure&u=http%3A//127.0.0.1%3A9/", "connection refused (connectionFailure)"),
        ("Error: NS_ERROR_FILE_NOT_FOUND", "about:blank", "no such file (fileNotFound)"),
        ("Error: deniedPortAccess", nil, "the browser does not connect to this port (deniedPortAccess)"),
        ("Error: NS_ERROR_GENERATE_FAILURE(NS_ERROR_MODULE_SECURITY, SSL_ERROR_RX_RECORD_TOO_LONG)", nil, "the TLS handshake failed (nssFailure2)"),
        ("Error: NS_ERROR_GENERATE_FAILURE(NS_ERROR_MODULE_SECURITY, SEC_ERROR_UNKNOWN_ISSUER)", nil, "the server's certificate is not trusted (nssBadCert)"),
        ("Error: NS_ERROR_SOMETHING_NEW", nil, "NS_ERROR_SOMETHING_NEW"),
    ] as [(String, String?, String)])
    func explainsAFailedBiDiNavigation(message: String, shownURL: String?, reason: String) {
        #expect(LoadFailure.reason(bidiMessage: message, shownURL: shownURL) == reason)
    }

    @Test func readsTheReasonFromABrowsersErrorPage() {
        #expect(LoadFailure.reason(requested: "http://a/", documentURL: "http://a/", pageText: nil) == nil)
        #expect(LoadFailure.reason(requested: "http://a/", documentURL: "about:blank", pageText: "\nCould not connect to a: Connection refused\n")
            == "Could not connect to a: Connection refused")
        #expect(LoadFailure.reason(requested: "file:///x", documentURL: "chrome-error://chromewebdata/", pageText: "Your file couldn’t be accessed\nERR_FILE_NOT_FOUND")
            == "no such file (ERR_FILE_NOT_FOUND)")
        #expect(LoadFailure.reason(requested: "about:blank", documentURL: "about:blank", pageText: "") == nil)
    }

    @Test(arguments: [
        ("javascript error: Unexpected token ';'\n  (Session info: chrome=156.0.8078.79)", "Unexpected token ';'"),
        ("Unexpected token ';'", "Unexpected token ';'"),
        ("Refused to evaluate a string\n", "Refused to evaluate a string"),
    ])
    func readsTheEnginesMessage(driverMessage: String, message: String) {
        #expect(SyntaxErrorLocator.engineMessage(driverMessage) == message)
    }

    @Test(arguments: [
        ("<input#q.search name=q>", "input", "q", ["search"], "q"),
        ("<div.a.b>", "div", nil, ["a", "b"], nil),
        ("<p#a\\.b>", "p", "a.b", [], nil),
        ("<input name=\"a b\">", "input", nil, [], "a b"),
    ] as [(String, String?, String?, [String], String?)])
    func readsANodeDescription(text: String, tag: String?, id: String?, classes: [String], name: String?) {
        let node = NodeDescription(text: text)
        #expect(node.tag == tag)
        #expect(node.id == id)
        #expect(node.classes == classes)
        #expect(node.name == name)
    }

    @Test func onlyANodeMarkerIsANode() {
        #expect(NodeDescription(["$node": "#text \"x\""])?.tag == nil)
        #expect(NodeDescription(["$node": "#text \"x\""])?.text == "#text \"x\"")
        #expect(NodeDescription(["node": "<a>"]) == nil)
        #expect(NodeDescription("<a>") == nil)
    }
}
