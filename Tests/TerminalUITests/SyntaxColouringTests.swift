import JavaScriptSyntax
import Testing
@testable import TerminalUI

/// The editor's colours come from `JavaScriptSyntax`'s lexer; these check the mapping to the
/// editor's kinds, the UTF-16 to character conversion, and the states carried from line to line.
@Suite("Syntax colouring")
struct SyntaxColouringTests {
    /// The text of each coloured span with its kind, for readable expectations.
    static func spans(_ line: String, from state: LexerState = .initial) -> [String] {
        let characters = Array(line)
        return LineTokenizer.tokenize(characters, from: state).tokens.map { token in
            "\(token.kind):\(String(characters[token.range]))"
        }
    }

    static func endState(_ lines: [String]) -> LexerState {
        var state = LexerState.initial
        for line in lines {
            state = LineTokenizer.endState(of: Array(line), from: state)
        }
        return state
    }

    @Test(arguments: [
        ("const x = 42;", ["keyword:const", "number:42"]),
        ("return 'a\\'b' + \"c\"", ["keyword:return", "string:'a\\'b'", "string:\"c\""]),
        ("let n = 0x1F + 1.5e-3", ["keyword:let", "number:0x1F", "number:1.5e-3"]),
        ("x = null ?? true", ["literal:null", "literal:true"]),
        ("y = undefined", ["literal:undefined"]),
        ("a // comment", ["comment:// comment"]),
        ("a /* b */ c", ["comment:/* b */"]),
        ("const r = /ab+c/gi;", ["keyword:const", "regex:/ab+c/gi"]),
        ("x = a / b / c", []),
        ("s.replace(/\\//g, '')", ["regex:/\\//g", "string:''"]),
        ("obj.return = 1", ["number:1"]),
        ("const 名前 = '日本語🎉'", ["keyword:const", "string:'日本語🎉'"]),
        ("'🎉' + 1", ["string:'🎉'", "number:1"]),
    ])
    func coloursOneLine(_ line: String, _ expected: [String]) {
        #expect(Self.spans(line) == expected)
    }

    @Test func aBlockCommentCarriesAcrossLines() {
        let state = Self.endState(["a /* start"])
        #expect(Self.spans("still comment */ let x", from: state) == ["comment:still comment */", "keyword:let"])
    }

    @Test func aTemplateCarriesAcrossLines() {
        let state = Self.endState(["const html = `<div>"])
        let spans = Self.spans("  </div>`; if (x) {}", from: state)
        #expect(spans.first == "template:  </div>`")
        #expect(spans.last == "keyword:if")
    }

    @Test func theHighlighterForgetsOnlyFromTheEditedRow() {
        let lines = (0..<100).map { Array("let a\($0) = \($0);") }
        var highlighter = SyntaxHighlighter()
        highlighter.learn(through: 99, in: lines)
        #expect(highlighter.exactRowCount == 100)
        highlighter.replaceRows(50...50, insertedCount: 1)
        #expect(highlighter.exactRowCount == 51)
        highlighter.learn(through: 60, in: lines)
        #expect(highlighter.exactRowCount == 61)
    }

    @Test func theHighlighterSeesACommentOpenedAbove() {
        var lines = [Array("/* open"), Array("let x")]
        var highlighter = SyntaxHighlighter()
        highlighter.learn(through: 1, in: lines)
        #expect(highlighter.tokens(forRow: 1, in: lines).map(\.kind) == [.comment])
        lines[0] = Array("// closed")
        highlighter.replaceRows(0...0, insertedCount: 1)
        highlighter.learn(through: 1, in: lines)
        #expect(highlighter.tokens(forRow: 1, in: lines).map(\.kind) == [.keyword])
    }
}
