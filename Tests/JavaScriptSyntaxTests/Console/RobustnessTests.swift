import JavaScriptSyntax
import Testing

/// Hostile shapes of input: very deep nesting, very long inputs, and inputs that end in the middle
/// of everything. None may crash, hang or be refused when valid.
struct RobustnessTests {
    @Test
    func deeplyNestedBracketsAndStatements() throws {
        let depth = 50_000
        let parentheses = String(repeating: "(", count: depth) + "1" + String(repeating: ")", count: depth)
        #expect(try ConsoleRewrite(parentheses).body == "return " + parentheses + "\n")

        let ifs = String(repeating: "if (a) ", count: depth) + "b()\nc()"
        #expect(try ConsoleRewrite(ifs).body == String(repeating: "if (a) ", count: depth) + "b()\nreturn c()\n")

        let templates = String(repeating: "`${", count: depth) + "1" + String(repeating: "}`", count: depth)
        #expect(try ConsoleRewrite(templates).completion != .none)

        let elses = "if (a) b();" + String(repeating: " else if (a) b();", count: depth) + "\nc()"
        #expect(try ConsoleRewrite(elses).body.hasSuffix("\nreturn c()\n"))
    }

    @Test
    func unclosedNestingIsReportedAtTheInnermostOpener() {
        let source = String(repeating: "[", count: 10_000)
        #expect(throws: JavaScriptSyntaxError(kind: .unexpectedEndOfInput, message: "Unexpected end of input: '[' is never closed by ']'", position: SourcePosition(line: 1, column: 10_000, offset: 9_999))) {
            try ConsoleRewrite(source)
        }
    }

    /// A megabyte of ordinary code, rewritten whole (the time is measured by `pagescript bench`,
    /// never asserted here).
    @Test
    func aMegabyteOfCode() throws {
        let chunk = """
        function add(a, b) { return a / b + `${a}` + /x+/g.exec(String(b)) }
        const o = { key: [1, 2, 3].map(x => x * 2), 'q': "str\\"ing" }; // comment
        if (o.key.length) { o.key.push(add(1, 2)) } else o.key.pop()

        """
        let source = String(repeating: chunk, count: 1_000_000 / chunk.utf8.count + 1) + "o.key.length"
        let rewrite = try ConsoleRewrite(source)
        #expect(rewrite.body.hasSuffix("\nreturn o.key.length\n"))
        #expect(rewrite.body.utf8.count == source.utf8.count + 8)
    }

    /// Every prefix of a script is either rewritten or refused with a certain error: none crashes,
    /// and the errors are the ones an unfinished text has.
    @Test
    func everyPrefixOfAScriptIsHandled() {
        let script = "const s = `a${ f('}', /[/]/g, {b: \"c\"}) }` /* d */ // e\nif (s) { g(s) } else h()\n{x: 1}"
        let units = Array(script.utf16)
        for length in 0...units.count {
            let prefix = String(decoding: units[..<length], as: UTF16.self)
            do {
                _ = try ConsoleRewrite(prefix)
            } catch {
                #expect([.unterminatedString, .unterminatedTemplate, .unterminatedComment, .unterminatedRegularExpression, .unexpectedEndOfInput].contains(error.kind), "\(prefix.debugDescription): \(error)")
            }
        }
    }
}
