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

    /// Random text made of JavaScript's significant characters: reading and rewriting always end,
    /// and every token lies inside the text, in order. The generator is seeded, so a failure
    /// repeats.
    @Test
    func randomTextNeverBreaksTheReader() {
        let alphabet = Array("abyield await return let if else for while do function class async of get set static {}()[];,.?:!=+-*/%<>&|^~`'\"\\$#@_0129xnoe \n\r\t\u{2028}😀“")
        var seed: UInt64 = 0x5EED
        func next() -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: seed >> 33)
        }
        for _ in 0..<3_000 {
            let length = next() % 120
            let text = String((0..<length).map { _ in alphabet[next() % alphabet.count] })
            var lexer = JavaScriptLexer(text)
            var previousEnd = 0
            let count = text.utf16.count
            while let token = lexer.next() {
                #expect(token.range.lowerBound >= previousEnd && token.range.upperBound <= count && !token.range.isEmpty, "\(text.debugDescription)")
                previousEnd = token.range.upperBound
            }
            _ = try? ConsoleRewrite(text)
            _ = try? ConsoleRewrite(text, mode: .userscript)
            var state = LexerState.initial
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                state = JavaScriptLexer.tokens(inLine: String(line), startingIn: state).endState
            }
        }
    }
}
