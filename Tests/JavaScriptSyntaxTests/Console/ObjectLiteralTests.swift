import JavaScriptSyntax
import Testing

/// An input that is `{ ... }` alone is an object literal when it reads as one, as in the browsers'
/// consoles (Chrome wraps it in parentheses when that parses), and a block otherwise. Where both
/// readings are valid JavaScript (`{a: 1}`, `{ a }`, `{}`), the console's object wins.
struct ObjectLiteralTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let source: String
        let isObject: Bool
        var testDescription: String { "\(source.debugDescription) is \(isObject ? "an object" : "a block")" }
    }

    static let cases: [Case] = [
        .init(source: "{a: 1}", isObject: true),
        .init(source: "{a: 1, b: 2}", isObject: true),
        .init(source: "{a: 1, b: 2,}", isObject: true),
        .init(source: "{}", isObject: true),
        .init(source: "{ }", isObject: true),
        .init(source: "{ a }", isObject: true),
        .init(source: "{ a, b }", isObject: true),
        .init(source: "{ \"x\": [1, 2], ...rest, [k]: v, m() {}, get g() {} }", isObject: true),
        .init(source: "{ 'a b': 1, 2: two, 0x10: sixteen, [`k${i}`]: v }", isObject: true),
        .init(source: "{ async m() {}, *gen() {}, async *agen() {}, get [k]() {}, set s(v) {} }", isObject: true),
        .init(source: "{ if: 1, return: 2, class: 3, new: 4 }", isObject: true),
        .init(source: "{ async, get, set, of, let, static }", isObject: true),
        .init(source: "{ get: 1, set: 2, async: 3 }", isObject: true),
        .init(source: "{ a: x ? y : z, b: () => {}, c: function () { return {} } }", isObject: true),
        .init(source: "{ a: /re/g, b: `t`, c: {d: {e: [1]}} }", isObject: true),
        .init(source: "{a: 1};", isObject: true),
        .init(source: "{a: 1} ;; // trailing", isObject: true),
        .init(source: "/* lead */ {a: 1}\n", isObject: true),
        .init(source: "{\n  a: 1,\n  b: 2\n}", isObject: true),
        .init(source: "{ a: await f() }", isObject: true),
        .init(source: "{ foo(); }", isObject: false),
        .init(source: "{ let x = 1; x }", isObject: false),
        .init(source: "{ a: 1; }", isObject: false),
        .init(source: "{ a = 1 }", isObject: false),
        .init(source: "{ a b }", isObject: false),
        .init(source: "{ a: 1 b: 2 }", isObject: false),
        .init(source: "{ 1 }", isObject: false),
        .init(source: "{ 'a' }", isObject: false),
        .init(source: "{ if }", isObject: false),
        .init(source: "{ this }", isObject: false),
        .init(source: "{ await }", isObject: false),
        .init(source: "{ get a }", isObject: false),
        .init(source: "{ a: }", isObject: false),
        .init(source: "{ ... }", isObject: false),
        .init(source: "{ #x: 1 }", isObject: false),
        .init(source: "{ if (a) b }", isObject: false),
        .init(source: "{ f() }", isObject: false),
        .init(source: "{ a: 1 }\n{ b: 2 }", isObject: false),
        .init(source: "{a: 1}\nx", isObject: false),
        .init(source: "x; {a: 1}", isObject: false),
        .init(source: "{a: 1}.a", isObject: false),
        .init(source: "{a: 1} + 1", isObject: false),
    ]

    @Test(arguments: cases)
    func decidesBetweenObjectAndBlock(_ testCase: Case) throws {
        let rewrite = try ConsoleRewrite(testCase.source)
        if case .objectLiteral = rewrite.completion {
            #expect(testCase.isObject)
        } else {
            #expect(!testCase.isObject)
        }
    }

    @Test
    func wrapsTheObjectInParenthesesAfterReturn() throws {
        let rewrite = try ConsoleRewrite("{ a: 1,\n  b: { c: 2 } } // note")
        #expect(rewrite.body == "return ({ a: 1,\n  b: { c: 2 } }) // note\n")
        #expect(rewrite.completion == .objectLiteral(SourcePosition(line: 1, column: 1, offset: 0)))
    }

    /// In userscript mode `{ ... }` stays a block: the managers run a script as it is.
    @Test
    func userscriptsKeepTheBlock() throws {
        let rewrite = try ConsoleRewrite("{a: 1}", mode: .userscript)
        #expect(rewrite.body == "{a: 1}\n")
        #expect(rewrite.completion == .none)
    }

    /// `{ return: 1 }` is an object whose property is named `return`, not a top-level `return`.
    @Test
    func anObjectsPropertyNamedReturnIsNoReturn() throws {
        let rewrite = try ConsoleRewrite("{ return: 1, await: 2 }")
        #expect(rewrite.body == "return ({ return: 1, await: 2 })\n")
        #expect(!rewrite.usesTopLevelAwait)
    }
}
