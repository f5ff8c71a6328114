import JavaScriptSyntax
import Testing

/// Reading a line at a time, carrying a ``LexerState`` from line to line, as a colouring editor
/// does: each line must read exactly as it does inside the whole text.
struct LineLexingTests {
    /// Reads `lines` one after another; returns each line's rendering and the state after it.
    private func readLines(_ lines: [String]) -> [(tokens: String, state: LexerState, error: JavaScriptSyntaxError?)] {
        var state = LexerState.initial
        return lines.map { line in
            let result = JavaScriptLexer.tokens(inLine: line, startingIn: state)
            state = result.endState
            return (TokenRendering.render(result.tokens, in: line), state, result.error)
        }
    }

    @Test
    func aBlockCommentContinuesOnTheNextLines() {
        let read = readLines(["a /* one", "", "two */ / 2", "b"])
        #expect(read.map(\.tokens) == ["n(a) bc(/* one)", "", "bc(two */) p(/) num(2)", "n(b)"])
        #expect(read.map(\.state.isInBlockComment) == [true, true, false, false])
    }

    @Test
    func aTemplateContinuesThroughNestedSubstitutions() {
        let read = readLines([
            "x = `a ${ f(`b ${ /}/.test(s) ? '}' : `c",
            "d` } e",
            "f`) } g`",
            ";/re/.test(x)",
        ])
        #expect(read.map(\.tokens) == [
            "n(x) p(=) tpl(`a ${) n(f) p(() tpl(`b ${) re(/}/) p(.) n(test) p(() n(s) p()) p(?) str('}') p(:) tpl(`c)",
            "tpl(d`) tpl(} e)",
            "tpl(f`) p()) tpl(} g`)",
            "p(;) re(/re/) p(.) n(test) p(() n(x) p())",
        ])
        #expect(read.map(\.state.isInTemplate) == [true, true, false, false])
        #expect(read.map(\.state.nestingDepth) == [6, 4, 0, 0])
    }

    @Test
    func aStringContinuesAfterABackslashAtTheEndOfALine() {
        let read = readLines(["s = 'one \\", "two' + 1", "t = 'three \\", "", "u = 2"])
        #expect(read.map(\.tokens) == ["n(s) p(=) str('one \\)", "str(two') p(+) num(1)", "n(t) p(=) str('three \\)", "", "n(u) p(=) num(2)"])
        #expect(read.map(\.state.isInString) == [true, false, true, false, false])
        #expect(read[3].error?.kind == .unterminatedString)
    }

    @Test
    func anUnterminatedStringEndsWithItsLine() {
        let read = readLines(["s = 'open", "t = 1"])
        #expect(read[0].error?.kind == .unterminatedString)
        #expect(read[1].tokens == "n(t) p(=) num(1)")
        #expect(read[1].error == nil)
    }

    @Test
    func aBlockDecidesTheNextLinesSlash() {
        let read = readLines(["if (a) {", "}", "/re/.test(s)", "x = {", "}", "/ 2"])
        #expect(read[2].tokens == "re(/re/) p(.) n(test) p(() n(s) p())")
        #expect(read[5].tokens == "p(/) num(2)")
    }

    @Test
    func htmlCloseCommentsAreRecognisedAtTheStartOfEachLine() {
        let read = readLines(["a", "--> comment", "b --> c"])
        #expect(read.map(\.tokens) == ["n(a)", "lc(--> comment)", "n(b) p(--) p(>) n(c)"])
    }

    @Test
    func statesAreEqualWhenTheRestWouldReadTheSame() {
        let first = readLines(["let a = 1;", "/* x */ f(a);"]).last?.state
        let second = readLines(["g();"]).last?.state
        #expect(first == second)
        let insideComment = readLines(["/* x"]).last?.state
        #expect(insideComment != second)
        #expect(LexerState.initial.nestingDepth == 0)
    }

    static let wholeTexts: [String] = [
        """
        // ==UserScript==
        // @name   Example
        // @match  https://example.com/*
        // ==/UserScript==
        'use strict';
        const rows = [...document.querySelectorAll('tr')].filter(r => /\\d+/.test(r.textContent));
        const html = `
          <ul>${rows.map(r => `<li class="${r.className}">${r.cells[0].textContent / 2}</li>`).join('')}</ul>
        `;
        if (rows.length) /* count */ console.log(rows.length / 2, html);
        function total() {
          return rows.reduce((sum, r) => sum + Number(r.dataset.value ?? 0), 0) / rows.length;
        }
        /total/.test(total.name) && total()
        """,
        "a = 1\r\nb = `x\r\ny ${ c\r\n} z`\r\n/* q\r\n */ d = e\r\n/f/g\u{2028}h = '\\\r\ni'",
    ]

    /// Every token of the whole text appears, with the same kind, at the same line and column when
    /// the text is read a line at a time.
    @Test(arguments: wholeTexts)
    func readingLineByLineAgreesWithReadingTheWholeText(_ text: String) throws {
        let whole = try JavaScriptLexer.tokens(in: text)
        let lines = splitLines(text)
        var state = LexerState.initial
        var seen: Set<String> = []
        for (number, line) in lines.enumerated() {
            let result = JavaScriptLexer.tokens(inLine: line, startingIn: state)
            #expect(result.error == nil)
            for token in result.tokens {
                seen.insert("\(token.kind) \(number + 1):\(token.start.column)")
            }
            state = result.endState
        }
        for token in whole {
            #expect(seen.contains("\(token.kind) \(token.start.line):\(token.start.column)"), "\(token.kind) at \(token.start)")
        }
        #expect(state.nestingDepth == 0)
    }

    /// Splits on the ECMAScript line terminators, as the lexer counts lines.
    private func splitLines(_ text: String) -> [String] {
        var lines: [String] = []
        var current: [UInt16] = []
        let units = Array(text.utf16)
        var index = 0
        while index < units.count {
            let unit = units[index]
            if [0x0A, 0x0D, 0x2028, 0x2029].contains(unit) {
                lines.append(String(decoding: current, as: UTF16.self))
                current = []
                if unit == 0x0D, index + 1 < units.count, units[index + 1] == 0x0A { index += 1 }
            } else {
                current.append(unit)
            }
            index += 1
        }
        lines.append(String(decoding: current, as: UTF16.self))
        return lines
    }
}
