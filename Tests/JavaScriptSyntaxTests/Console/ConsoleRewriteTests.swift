import JavaScriptSyntax
import Testing

/// The rewrite's output, exactly: what is inserted, what is neutralised, and that nothing else
/// changes.
struct ConsoleRewriteTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let source: String
        let body: String
        let completion: ConsoleRewrite.Completion
        var testDescription: String { source.debugDescription }
    }

    private static func at(_ line: Int, _ column: Int, _ offset: Int) -> SourcePosition {
        SourcePosition(line: line, column: column, offset: offset)
    }

    static let cases: [Case] = [
        .init(source: "document.title", body: "return document.title\n", completion: .lastExpression(at(1, 1, 0))),
        .init(source: "document.title\n", body: "return document.title\n", completion: .lastExpression(at(1, 1, 0))),
        .init(source: "  document.title;  ", body: "  return document.title;  \n", completion: .lastExpression(at(1, 3, 2))),
        .init(source: "const t = document.title\nt.toUpperCase()", body: "const t = document.title\nreturn t.toUpperCase()\n", completion: .lastExpression(at(2, 1, 25))),
        .init(source: "foo() // done", body: "return foo() // done\n", completion: .lastExpression(at(1, 1, 0))),
        .init(source: "foo() /* done */", body: "return foo() /* done */\n", completion: .lastExpression(at(1, 1, 0))),
        .init(source: "// first\nfoo()\n// last", body: "// first\nreturn foo()\n// last\n", completion: .lastExpression(at(2, 1, 9))),
        .init(source: "a()\r\nb()\r\n", body: "a()\r\nreturn b()\r\n", completion: .lastExpression(at(2, 1, 5))),
        .init(source: "a()\rb()", body: "a()\rreturn b()\n", completion: .lastExpression(at(2, 1, 4))),
        .init(source: "a()\u{2028}b()", body: "a()\u{2028}return b()\n", completion: .lastExpression(at(2, 1, 4))),
        .init(source: "a()\u{2029}", body: "return a()\u{2029}", completion: .lastExpression(at(1, 1, 0))),
        .init(source: "'😀'.length", body: "return '😀'.length\n", completion: .lastExpression(at(1, 1, 0))),
        .init(source: "x = '😀'; x + 1", body: "x = '😀'; return x + 1\n", completion: .lastExpression(at(1, 11, 10))),
        .init(source: "", body: "\n", completion: .none),
        .init(source: "   \n\t", body: "   \n\t\n", completion: .none),
        .init(source: "// only a comment", body: "// only a comment\n", completion: .none),
        .init(source: "let x = 1", body: "let x = 1\n", completion: .none),
        .init(source: "for (const a of b) c(a)", body: "for (const a of b) c(a)\n", completion: .none),
        // A hashbang line becomes a comment of the same length, so lines and columns stay.
        .init(source: "#!/usr/bin/env node\nmain()", body: "///usr/bin/env node\nreturn main()\n", completion: .lastExpression(at(2, 1, 20))),
        .init(source: "\u{FEFF}#!x\n1", body: "\u{FEFF}//x\nreturn 1\n", completion: .lastExpression(at(2, 1, 5))),
        // A directive stays first, so it still applies.
        .init(source: "'use strict';\nfoo()", body: "'use strict';\nreturn foo()\n", completion: .lastExpression(at(2, 1, 14))),
        .init(source: "\"use strict\"", body: "return \"use strict\"\n", completion: .lastExpression(at(1, 1, 0))),
        .init(source: "'use strict'\nfunction f() {}", body: "'use strict'\nfunction f() {}\n", completion: .none),
        // Function declarations after the last expression have no effect where they stand.
        .init(source: "main()\nfunction main() { return 1 }", body: "return main()\nfunction main() { return 1 }\n", completion: .lastExpression(at(1, 1, 0))),
        .init(source: "main();\nasync function main() {}\n;", body: "return main();\nasync function main() {}\n;\n", completion: .lastExpression(at(1, 1, 0))),
        // Object literals that are the whole input.
        .init(source: "{a: 1, b: 2}", body: "return ({a: 1, b: 2})\n", completion: .objectLiteral(at(1, 1, 0))),
        .init(source: "{}", body: "return ({})\n", completion: .objectLiteral(at(1, 1, 0))),
        .init(source: " { a } ; // x", body: " return ({ a }) ; // x\n", completion: .objectLiteral(at(1, 2, 1))),
        .init(source: "/* c */\n{\n  a: 1,\n  b: [2, 3],\n}\n", body: "/* c */\nreturn ({\n  a: 1,\n  b: [2, 3],\n})\n", completion: .objectLiteral(at(2, 1, 8))),
        .init(source: "{ foo(); }", body: "{ foo(); }\n", completion: .none),
    ]

    @Test(arguments: cases)
    func rewritesExactly(_ testCase: Case) throws {
        let rewrite = try ConsoleRewrite(testCase.source)
        #expect(rewrite.body == testCase.body)
        #expect(rewrite.completion == testCase.completion)
        #expect(rewrite.mode == .console)
    }

    /// A `// ==UserScript==` block is comments: it stays, byte for byte, before the code.
    @Test
    func keepsAUserscriptsMetadataBlock() throws {
        let source = """
        // ==UserScript==
        // @name        Word count
        // @match       https://example.com/*
        // @grant       GM_getValue
        // ==/UserScript==

        const words = document.body.innerText.split(/\\s+/).length
        words
        """
        let rewrite = try ConsoleRewrite(source, mode: .userscript)
        #expect(rewrite.body == source.dropLast("words".count) + "return words\n")
    }

    /// Removing what was inserted gives the user's code back, for every kind of input: the rewrite
    /// changes nothing else.
    @Test(arguments: [
        "a\n(b)\n[c]", "{a: 1}", "x = `${ {a: 1} }`\n{ y }", "label: { 1 }", "if (a) { b } else c\nd",
        "'use strict'; await f()\n// end", "/re/g.test(s) && f() /* c */", "a\r\nb\u{2028}c\u{2029}d",
    ])
    func changesNothingButWhatItInserts(_ source: String) throws {
        let rewrite = try ConsoleRewrite(source)
        var body = rewrite.body
        switch rewrite.completion {
        case .none:
            break
        case .lastExpression(let start):
            let index = String.Index(utf16Offset: start.offset, in: body)
            #expect(body[index...].hasPrefix("return "))
            body.removeSubrange(index..<body.utf16.index(index, offsetBy: 7))
        case .objectLiteral(let start):
            let index = String.Index(utf16Offset: start.offset, in: body)
            #expect(body[index...].hasPrefix("return ("))
            body.removeSubrange(index..<body.utf16.index(index, offsetBy: 8))
            let close = try #require(body.lastIndex(of: ")"))
            body.remove(at: close)
        }
        #expect(body == source || body == source + "\n")
    }

    /// The caller closes its function on the next line; the body's last line, even a `//`
    /// comment, cannot swallow it.
    @Test(arguments: ["f() // comment", "f()\n// comment", "f()\n", "f()\r\n", "f()\u{2028}", "x = `a\nb`"])
    func alwaysEndsWithALineBreak(_ source: String) throws {
        let body = try ConsoleRewrite(source).body
        let last = try #require(body.unicodeScalars.last)
        #expect(["\n", "\r", "\u{2028}", "\u{2029}"].contains(last))
    }
}
