import Testing
@testable import TerminalUI

@Suite("JavaScript tokenizer")
struct JavaScriptTokenizerTests {
    /// The text of each coloured span with its kind, for readable expectations.
    static func spans(_ line: String, from state: LexerState = .initial) -> [String] {
        let characters = Array(line)
        return JavaScriptTokenizer.tokenize(characters, from: state).tokens.map { token in
            "\(token.kind):\(String(characters[token.range]))"
        }
    }

    static func endState(_ lines: [String]) -> LexerState {
        var state = LexerState.initial
        for line in lines {
            state = JavaScriptTokenizer.tokenize(Array(line), from: state).end
        }
        return state
    }

    @Test(arguments: [
        ("const x = 42;", ["keyword:const", "number:42"]),
        ("return 'a\\'b' + \"c\"", ["keyword:return", "string:'a\\'b'", "string:\"c\""]),
        ("let n = 0x1F + 1.5e-3", ["keyword:let", "number:0x1F", "number:1.5e-3"]),
        ("x = null ?? true", ["literal:null", "literal:true"]),
        ("a // comment", ["comment:// comment"]),
        ("a /* b */ c", ["comment:/* b */"]),
        ("/*/ still a comment */", ["comment:/*/ still a comment */"]),
        ("const r = /ab+c/gi;", ["keyword:const", "regex:/ab+c/gi"]),
        ("x = a / b / c", []),
        ("if (/[/]x/.test(s)) {}", ["keyword:if", "regex:/[/]x/"]),
        ("s.replace(/\\//g, '')", ["regex:/\\//g", "string:''"]),
        ("const t = `a ${b + 1} c`;", ["keyword:const", "template:`a ${", "number:1", "template:} c`"]),
        ("obj.return = 1", ["number:1"]),
        ("const 名前 = '日本語🎉'", ["keyword:const", "string:'日本語🎉'"]),
    ])
    func tokenizesOneLine(_ line: String, _ expected: [String]) {
        #expect(Self.spans(line) == expected)
    }

    @Test func blockCommentCarriesAcrossLines() {
        let state = Self.endState(["a /* start"])
        #expect(state.inBlockComment)
        #expect(Self.spans("still comment */ let x", from: state) == ["comment:still comment */", "keyword:let"])
    }

    @Test func templateLiteralCarriesAcrossLines() {
        let state = Self.endState(["const html = `<div>"])
        #expect(state.contexts.last == .template)
        #expect(Self.spans("  ${name}</div>`; if", from: state) == ["template:  ${", "template:}</div>`", "keyword:if"])
    }

    @Test func nestedTemplateInsideSubstitution() {
        #expect(Self.spans("`a ${`b ${c}`} d`") == ["template:`a ${`b ${", "template:}`} d`"])
        #expect(Self.endState(["`a ${`b ${c}`} d`"]).contexts == LexerState.initial.contexts)
    }

    @Test func bracesInsideSubstitutionDoNotEndIt() {
        #expect(Self.spans("`${ {a: 1}.a } x`") == ["template:`${", "number:1", "template:} x`"])
    }

    @Test func regexAllowedAfterReturnOnThePreviousLine() {
        let state = Self.endState(["return"])
        #expect(Self.spans("/x/.test(s)", from: state) == ["regex:/x/"])
    }

    @Test func unterminatedRegexIsDivision() {
        #expect(Self.spans("x = / 2") == ["number:2"])
    }

    @Test func highlighterInvalidatesOnlyFromTheEditedRow() {
        let lines = (0..<100).map { Array("let a\($0) = \($0);") }
        var highlighter = SyntaxHighlighter()
        highlighter.learnEntryStates(through: 99, in: lines)
        #expect(highlighter.knownRowCount == 100)
        highlighter.invalidate(fromRow: 50)
        #expect(highlighter.knownRowCount == 51)
        highlighter.learnEntryStates(through: 60, in: lines)
        #expect(highlighter.knownRowCount == 61)
    }

    @Test func highlighterSeesACommentOpenedAbove() {
        var lines = [Array("/* open"), Array("let x")]
        var highlighter = SyntaxHighlighter()
        highlighter.learnEntryStates(through: 1, in: lines)
        #expect(highlighter.tokens(forRow: 1, in: lines).map(\.kind) == [.comment])
        lines[0] = Array("// closed")
        highlighter.invalidate(fromRow: 0)
        highlighter.learnEntryStates(through: 1, in: lines)
        #expect(highlighter.tokens(forRow: 1, in: lines).map(\.kind) == [.keyword])
    }
}
