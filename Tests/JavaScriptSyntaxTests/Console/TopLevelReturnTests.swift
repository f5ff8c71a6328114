import JavaScriptSyntax
import Testing

/// `return` outside any function: an error the user must see in console mode, with a suggestion
/// made of what they wrote; allowed in userscript mode, as the managers run scripts in a function.
struct TopLevelReturnTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let source: String
        let line: Int
        let column: Int
        /// What the message suggests writing instead, or `nil` for the general advice.
        let suggestion: String?
        var testDescription: String { source.debugDescription }
    }

    static let cases: [Case] = [
        .init(source: "return document.title", line: 1, column: 1, suggestion: "document.title"),
        .init(source: "return document.title;", line: 1, column: 1, suggestion: "document.title"),
        .init(source: "const t = 1\n  return t * 2 // twice", line: 2, column: 3, suggestion: "t * 2"),
        .init(source: "if (done) return", line: 1, column: 11, suggestion: nil),
        .init(source: "if (done) return;\nwork()", line: 1, column: 11, suggestion: nil),
        .init(source: "{ return 1 }", line: 1, column: 3, suggestion: "1"),
        .init(source: "for (;;) { return }", line: 1, column: 12, suggestion: nil),
        .init(source: "try { return f(a, [b]) } catch {}", line: 1, column: 7, suggestion: "f(a, [b])"),
        .init(source: "'😀'; return x", line: 1, column: 7, suggestion: "x"),
        .init(source: "a\r\nreturn\r\nb", line: 2, column: 1, suggestion: nil),
        .init(source: "return `a\nb`", line: 1, column: 1, suggestion: nil),
        .init(source: "return (\n  1\n)", line: 1, column: 1, suggestion: nil),
    ]

    @Test(arguments: cases)
    func consoleModeRefusesTopLevelReturn(_ testCase: Case) throws {
        let error = try #require(throws: JavaScriptSyntaxError.self) { try ConsoleRewrite(testCase.source) }
        #expect(error.kind == .illegalReturn)
        #expect(error.line == testCase.line)
        #expect(error.column == testCase.column)
        #expect(error.message.hasPrefix("Illegal return statement: `return` is only valid inside a function"))
        if let suggestion = testCase.suggestion {
            #expect(error.message.hasSuffix("Write `\(suggestion)` instead of `return \(suggestion)`."))
        } else {
            #expect(error.message.contains("`document.title`, not `return document.title`"))
        }
    }

    @Test(arguments: cases)
    func userscriptModeAllowsIt(_ testCase: Case) throws {
        _ = try ConsoleRewrite(testCase.source, mode: .userscript)
    }

    @Test(arguments: [
        "function f() { return 1 }",
        "const f = () => { return 1 }",
        "x = { m() { return 1 }, get g() { return 2 } }",
        "class A { m() { return 1 } static { } }",
        "(function () { if (a) return })()",
        "a.return(1); x = { return: 1 }",
        "// return x\n'return'",
    ])
    func returnInsideFunctionsIsFine(_ source: String) throws {
        _ = try ConsoleRewrite(source)
    }

    @Test
    func userscriptModeStillReturnsTheLastExpression() throws {
        let rewrite = try ConsoleRewrite("if (!document.body) return\nmain()", mode: .userscript)
        #expect(rewrite.body == "if (!document.body) return\nreturn main()\n")
    }
}
