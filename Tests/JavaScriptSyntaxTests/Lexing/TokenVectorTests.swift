import JavaScriptSyntax
import Testing

/// Token boundaries and kinds of every kind of token. The expected readings were produced by acorn
/// 8.16 (the parser bundled in Node.js 20) with its tokens merged into the pieces this lexer cuts
/// template literals into, so they are not this lexer's own output played back.
struct TokenVectorTests {
    static let vectors: [Vector] = [
        .init("x", "n(x)"),
        .init("$ _ $x _y x1 $1", "n($) n(_) n($x) n(_y) n(x1) n($1)"),
        .init("café = 1", "n(café) p(=) num(1)"),
        .init("变量 + 1", "n(变量) p(+) num(1)"),
        .init("𝑥 = 2", "n(𝑥) p(=) num(2)"),
        .init("\\u0061bc", "n(\\u0061bc)"),
        .init("\\u{61}bc", "n(\\u{61}bc)"),
        .init("a\\u0062c", "n(a\\u0062c)"),
        .init("ünï_cödé$", "n(ünï_cödé$)"),
        .init("x\u{200C}y", "n(x\u{200C}y)"),
        .init("this.#priv", "n(this) p(.) #(#priv)"),
        .init("#priv in obj", "#(#priv) n(in) n(obj)"),
        .init("class A { #x = 1; #m() { return this.#x } }", "n(class) n(A) p({) #(#x) p(=) num(1) p(;) #(#m) p(() p()) p({) n(return) n(this) p(.) #(#x) p(}) p(})"),
        .init("a.if", "n(a) p(.) n(if)"),
        .init("a?.return", "n(a) p(?.) n(return)"),
        .init("obj.class.function", "n(obj) p(.) n(class) p(.) n(function)"),
        .init("x = { if: 1, return: 2, class: 3 }", "n(x) p(=) p({) n(if) p(:) num(1) p(,) n(return) p(:) num(2) p(,) n(class) p(:) num(3) p(})"),
        .init("0", "num(0)"),
        .init("123", "num(123)"),
        .init("1_000_000", "num(1_000_000)"),
        .init("0x1F", "num(0x1F)"),
        .init("0XAB_CD", "num(0XAB_CD)"),
        .init("0o17", "num(0o17)"),
        .init("0O7_7", "num(0O7_7)"),
        .init("0b101", "num(0b101)"),
        .init("0B1_0", "num(0B1_0)"),
        .init("10n", "num(10n)"),
        .init("0x1Fn", "num(0x1Fn)"),
        .init("0o7n", "num(0o7n)"),
        .init("0b1n", "num(0b1n)"),
        .init("1_0n", "num(1_0n)"),
        .init(".5", "num(.5)"),
        .init("0.5", "num(0.5)"),
        .init("5.", "num(5.)"),
        .init("1e10", "num(1e10)"),
        .init("1E+10", "num(1E+10)"),
        .init("1e-10", "num(1e-10)"),
        .init("1.5e3", "num(1.5e3)"),
        .init(".5e-3", "num(.5e-3)"),
        .init("1_0.2_5e1_0", "num(1_0.2_5e1_0)"),
        .init("017", "num(017)"),
        .init("08", "num(08)"),
        .init("09.5", "num(09.5)"),
        .init("00", "num(00)"),
        .init("0.0_1", "num(0.0_1)"),
        .init("1..toString()", "num(1.) p(.) n(toString) p(() p())"),
        .init("1.0.toFixed(2)", "num(1.0) p(.) n(toFixed) p(() num(2) p())"),
        .init("x = a?.5:b", "n(x) p(=) n(a) p(?) num(.5) p(:) n(b)"),
        .init("'abc'", "str('abc')"),
        .init("\"abc\"", "str(\"abc\")"),
        .init("'a\\'b'", "str('a\\'b')"),
        .init("\"a\\\"b\"", "str(\"a\\\"b\")"),
        .init("'\\\\'", "str('\\\\')"),
        .init("\"\\x41\\u0041\\u{1F600}\\101\\0\"", "str(\"\\x41\\u0041\\u{1F600}\\101\\0\")"),
        .init("'a\\\nb'", "str('a\\\nb')"),
        .init("\"a\\u2028b\"", "str(\"a\\u2028b\")"),
        .init("'\"'", "str('\"')"),
        .init("\"'\"", "str(\"'\")"),
        .init("''", "str('')"),
        .init("`abc`", "tpl(`abc`)"),
        .init("``", "tpl(``)"),
        .init("`a${b}c`", "tpl(`a${) n(b) tpl(}c`)"),
        .init("`a${b}c${d}e`", "tpl(`a${) n(b) tpl(}c${) n(d) tpl(}e`)"),
        .init("`${a}`", "tpl(`${) n(a) tpl(}`)"),
        .init("`${`${`${x}`}`}`", "tpl(`${) tpl(`${) tpl(`${) n(x) tpl(}`) tpl(}`) tpl(}`)"),
        .init("`a${ {b: 1}.b }c`", "tpl(`a${) p({) n(b) p(:) num(1) p(}) p(.) n(b) tpl(}c`)"),
        .init("`a${ function () { return \"}\" }() }c`", "tpl(`a${) n(function) p(() p()) p({) n(return) str(\"}\") p(}) p(() p()) tpl(}c`)"),
        .init("`\\``", "tpl(`\\``)"),
        .init("`\\${x}`", "tpl(`\\${x}`)"),
        .init("`$`", "tpl(`$`)"),
        .init("`$${x}`", "tpl(`$${) n(x) tpl(}`)"),
        .init("`line1\nline2`", "tpl(`line1\nline2`)"),
        .init("tag`a${b}c`", "n(tag) tpl(`a${) n(b) tpl(}c`)"),
        .init("x = `a${ `b${ `c${ d }` }` }`", "n(x) p(=) tpl(`a${) tpl(`b${) tpl(`c${) n(d) tpl(}`) tpl(}`) tpl(}`)"),
        .init("`${ /}/.source }`", "tpl(`${) re(/}/) p(.) n(source) tpl(}`)"),
        .init("`${ '}' }`", "tpl(`${) str('}') tpl(}`)"),
        .init("`${ \"`\" }`", "tpl(`${) str(\"`\") tpl(}`)"),
        .init("/abc/", "re(/abc/)"),
        .init("/abc/gimsuyd", "re(/abc/gimsuyd)"),
        .init("/[/]/", "re(/[/]/)"),
        .init("/[\\]/]/", "re(/[\\]/]/)"),
        .init("/\\//", "re(/\\//)"),
        .init("/a\\/b/", "re(/a\\/b/)"),
        .init("/=/", "re(/=/)"),
        .init("/=/g", "re(/=/g)"),
        .init("/[a-z]+/v", "re(/[a-z]+/v)"),
        .init("/(?<year>\\d{4})/u", "re(/(?<year>\\d{4})/u)"),
        .init("x = /re/g.test(s)", "n(x) p(=) re(/re/g) p(.) n(test) p(() n(s) p())"),
        .init("// line comment", "lc(// line comment)"),
        .init("/* block */", "bc(/* block */)"),
        .init("/* multi\nline */", "bc(/* multi\nline */)"),
        .init("/**/", "bc(/**/)"),
        .init("/* * / */", "bc(/* * / */)"),
        .init("a // trailing", "n(a) lc(// trailing)"),
        .init("a /* inline */ b", "n(a) bc(/* inline */) n(b)"),
        .init("#!/usr/bin/env node\nx()", "hb(#!/usr/bin/env node) n(x) p(() p())"),
        .init("#!shebang", "hb(#!shebang)"),
        .init("<!-- html open", "lc(<!-- html open)"),
        .init("x <!-- rest", "n(x) lc(<!-- rest)"),
        .init("-->  html close at start", "lc(-->  html close at start)"),
        .init("x = 1\n--> close after line break", "n(x) p(=) num(1) lc(--> close after line break)"),
        .init("/* c */ --> after a comment", "bc(/* c */) lc(--> after a comment)"),
        .init("a --> b", "n(a) p(--) p(>) n(b)"),
        .init("a?.b ?? c", "n(a) p(?.) n(b) p(??) n(c)"),
        .init("a ??= b", "n(a) p(??=) n(b)"),
        .init("a ||= b", "n(a) p(||=) n(b)"),
        .init("a &&= b", "n(a) p(&&=) n(b)"),
        .init("a **= 2", "n(a) p(**=) num(2)"),
        .init("a >>>= 1", "n(a) p(>>>=) num(1)"),
        .init("a >>= 1", "n(a) p(>>=) num(1)"),
        .init("a <<= 1", "n(a) p(<<=) num(1)"),
        .init("a => a", "n(a) p(=>) n(a)"),
        .init("a === b !== c == d != e", "n(a) p(===) n(b) p(!==) n(c) p(==) n(d) p(!=) n(e)"),
        .init("a <= b >= c < d > e", "n(a) p(<=) n(b) p(>=) n(c) p(<) n(d) p(>) n(e)"),
        .init("a << b >> c >>> d", "n(a) p(<<) n(b) p(>>) n(c) p(>>>) n(d)"),
        .init("a & b | c ^ d", "n(a) p(&) n(b) p(|) n(c) p(^) n(d)"),
        .init("!a && ~b || c", "p(!) n(a) p(&&) p(~) n(b) p(||) n(c)"),
        .init("a++ + ++b", "n(a) p(++) p(+) p(++) n(b)"),
        .init("a-- - --b", "n(a) p(--) p(-) p(--) n(b)"),
        .init("a + +b - -c", "n(a) p(+) p(+) n(b) p(-) p(-) n(c)"),
        .init("...a", "p(...) n(a)"),
        .init("a ? b : c", "n(a) p(?) n(b) p(:) n(c)"),
        .init("a, b; c", "n(a) p(,) n(b) p(;) n(c)"),
        .init("(a)[b]{c}", "p(() n(a) p()) p([) n(b) p(]) p({) n(c) p(})"),
        .init("@decorator", "p(@) n(decorator)"),
        .init("x.y", "n(x) p(.) n(y)"),
        .init("/* c */ --> after a comment\nx", "bc(/* c */) lc(--> after a comment) n(x)"),
        .init("a\n/* two\nlines */ --> comment\nb", "n(a) bc(/* two\nlines */) lc(--> comment) n(b)"),
        .init("x\u{2028}--> after a line separator", "n(x) lc(--> after a line separator)"),
        .init("a\r\nb\rc\nd", "n(a) n(b) n(c) n(d)"),
        .init("a\u{2029}b", "n(a) n(b)"),
        .init("\"\\u{10FFFF}\"", "str(\"\\u{10FFFF}\")"),
        .init("x = a\n/b/g", "n(x) p(=) n(a) p(/) n(b) p(/) n(g)"),
        .init("x = a\n/=b/g", "n(x) p(=) n(a) p(/=) n(b) p(/) n(g)"),
    ]

    @Test(arguments: vectors)
    func readsTokensAsAcornDoes(_ vector: Vector) {
        let reading = TokenRendering.render(vector.source)
        #expect(reading.error == nil)
        #expect(reading.tokens == vector.expected)
    }

    @Test
    func tokensCoverTheSourceExceptWhitespace() throws {
        let source = "let a = `x${ b /* c */ }y` // d\n/re/g.test(a) <!-- e\n-->f\n"
        let tokens = try JavaScriptLexer.tokens(in: source)
        var covered = Array(repeating: false, count: source.utf16.count)
        var previousEnd = 0
        for token in tokens {
            #expect(token.range.lowerBound >= previousEnd)
            previousEnd = token.range.upperBound
            for offset in token.range { covered[offset] = true }
        }
        let units = Array(source.utf16)
        for (offset, isCovered) in covered.enumerated() where !isCovered {
            #expect([0x20, 0x0A].contains(units[offset]), "offset \(offset) is neither a token nor whitespace")
        }
    }

    @Test
    func commentsAreTokensThatSayTheyAreComments() throws {
        let tokens = try JavaScriptLexer.tokens(in: "#!/bin/x\n// a\n/* b */ c <!-- d\n--> e")
        #expect(tokens.map(\.kind) == [.hashbang, .lineComment, .blockComment, .identifier, .lineComment, .lineComment])
        #expect(tokens.map(\.isComment) == [true, true, true, false, true, true])
    }

    @Test
    func lineBreakBeforeATokenCountsCommentsBetween() throws {
        let tokens = try JavaScriptLexer.tokens(in: "a /* x\n */ b /* y */ c\nd")
        let significant = tokens.filter { !$0.isComment }
        #expect(significant.map(\.isPrecededByLineBreak) == [false, true, false, true])
    }
}
