import JavaScriptSyntax
import Testing

/// `await` outside every function makes the body need an async function; inside a function,
/// arrow function or class it belongs to that function.
struct TopLevelAwaitTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let source: String
        let usesTopLevelAwait: Bool
        var testDescription: String { source.debugDescription }
    }

    static let cases: [Case] = [
        .init(source: "await fetch('/x')", usesTopLevelAwait: true),
        .init(source: "const r = await fetch('/x')\nr.status", usesTopLevelAwait: true),
        .init(source: "for await (const chunk of stream) use(chunk)", usesTopLevelAwait: true),
        .init(source: "if (a) { await b() }", usesTopLevelAwait: true),
        .init(source: "{ await b() }", usesTopLevelAwait: true),
        .init(source: "try { x() } finally { await y() }", usesTopLevelAwait: true),
        .init(source: "f(await g())", usesTopLevelAwait: true),
        .init(source: "x = [await a, { b: await c }]", usesTopLevelAwait: true),
        .init(source: "x = `${await a}`", usesTopLevelAwait: true),
        .init(source: "{ a: await f() }", usesTopLevelAwait: true),
        .init(source: "f = async x => x\nawait f(1)", usesTopLevelAwait: true),
        .init(source: "f = async x => x, await g()", usesTopLevelAwait: true),
        .init(source: "a ? async () => await b : await c", usesTopLevelAwait: true),
        .init(source: "list.map(async x => await x); await done", usesTopLevelAwait: true),
        .init(source: "async function f() { await g() }", usesTopLevelAwait: false),
        .init(source: "async function f() { await g() }\nf()", usesTopLevelAwait: false),
        .init(source: "const f = async () => { await g() }", usesTopLevelAwait: false),
        .init(source: "list.map(async x => await x)", usesTopLevelAwait: false),
        .init(source: "list.map(async (x) => await f(x, await g(x)))", usesTopLevelAwait: false),
        .init(source: "const f = async x =>\n  await g(x)", usesTopLevelAwait: false),
        .init(source: "x = { async m() { await g() } }", usesTopLevelAwait: false),
        .init(source: "class A { async m() { await g() } }", usesTopLevelAwait: false),
        .init(source: "class A { static async m() { for await (const x of y) ; } }", usesTopLevelAwait: false),
        .init(source: "(async function () { await g() })()", usesTopLevelAwait: false),
        .init(source: "x.await + y.await", usesTopLevelAwait: false),
        .init(source: "x = { await: 1 }", usesTopLevelAwait: false),
        .init(source: "// await in a comment\n'await in a string'", usesTopLevelAwait: false),
        .init(source: "`await in a template`", usesTopLevelAwait: false),
    ]

    @Test(arguments: cases)
    func findsAwaitOutsideFunctions(_ testCase: Case) throws {
        #expect(try ConsoleRewrite(testCase.source).usesTopLevelAwait == testCase.usesTopLevelAwait)
        #expect(try ConsoleRewrite(testCase.source, mode: .userscript).usesTopLevelAwait == testCase.usesTopLevelAwait)
    }
}
