import Engines
import Foundation
import SystemSupport
import TestSupport
import Testing
@testable import PageRuntime

/// Syntax and runtime errors are placed in the user's script, on pages whose policy forbids eval
/// (a header, a `<meta>`, Trusted Types), on both engines.
@Suite(.serialized)
struct ErrorPositionTests {
    static let policies: [(path: String, response: LoopbackResponse)] = [
        ("/header", LoopbackResponse(html: "<!doctype html><title>Header policy</title><p>x</p>", headers: PageFixtures.strictPolicy)),
        ("/meta", LoopbackResponse(html: "<!doctype html><meta http-equiv=\"Content-Security-Policy\" content=\"script-src 'self'; style-src 'self'\"><title>Meta policy</title><p>x</p>")),
        ("/trusted-types", LoopbackResponse(html: "<!doctype html><title>Trusted Types</title><p>x</p>",
                                            headers: ["Content-Security-Policy": "script-src 'self'; require-trusted-types-for 'script'"])),
    ]

    /// Scripts and where their error is: (code, name, line, column); a nil column is not checked
    /// (runtime errors: V8 points at the property, JavaScriptCore at the dot).
    static let cases: [(code: String, name: String, line: Int, column: Int?)] = [
        ("let x = ;", "SyntaxError", 1, 9),
        ("const a = 1;\nconst b = 2;\n  if (a) { b +* 3 }\n", "SyntaxError", 3, 15),
        ("function f() {\n  return 1 +\n}", "SyntaxError", 3, 1),
        ("const ok = [1, 2];\nconst bad = ok.map(x => x ** );", "SyntaxError", 2, 30),
        ("null.x", "TypeError", 1, nil),
        ("const a = 1;\n\nundefinedName.foo", "ReferenceError", 3, nil),
        ("return (async () => {\n  await null;\n  await new Promise(r => setTimeout(r, 10));\n  null.y;\n})()", "TypeError", 4, nil),
        ("function inner() {\n  throw new RangeError('deep');\n}\nfunction outer() { inner(); }\nouter()", "RangeError", 2, nil),
    ]

    /// Console code (`-e`, the editor) as the user typed it: `return` is inserted before the last
    /// expression, and positions on that line are still the user's.
    static let consoleCases: [(code: String, name: String, line: Int, column: Int?)] = [
        ("null.x", "TypeError", 1, nil),
        ("const a = 1;\nawait new Promise(r => setTimeout(r, 10));\nnull.y", "TypeError", 3, nil),
        ("let x = ;", "SyntaxError", 1, 9),
        ("const list = [1, 2]\nlist.map(x => x ** )", "SyntaxError", 2, 20),
        ("return document.title", "SyntaxError", 1, 1),
        ("let s = 'abc", "SyntaxError", 1, 9),
        ("if (true) {\n  call(\n}", "SyntaxError", 3, 1),
    ]

    @Test(arguments: PageFixtures.everyEngine)
    func consoleCodeErrorsArePlacedInTheUsersText(engine: Engine) async throws {
        let server = try LoopbackServer(responses: Dictionary(uniqueKeysWithValues: Self.policies.map { ($0.path, $0.response) }))
        defer { server.stop() }
        try await PageFixtures.onPage(engine, server, path: "/header") { page in
            for sample in Self.consoleCases {
                let result = try await page.run(script: sample.code, mode: .console)
                let label = sample.code.debugDescription
                #expect(result.error?.name == sample.name, "\(label): \(String(describing: result.error))")
                #expect(result.error?.line == sample.line, "\(label)")
                if let column = sample.column {
                    #expect(result.error?.column == column, "\(label)")
                }
            }
            let nullColumn = try await page.run(script: "null.x", mode: .console).error?.column
            // SpiderMonkey places the error at the expression's start, the others at the property.
            #expect(nullColumn == [.chromium: 6, .firefox: 1][engine, default: 5], "the column the engine gives, without the inserted return")
        }
    }

    @Test(arguments: PageFixtures.everyEngine)
    func errorsArePlacedInTheUsersScript(engine: Engine) async throws {
        let server = try LoopbackServer(responses: Dictionary(uniqueKeysWithValues: Self.policies.map { ($0.path, $0.response) }))
        defer { server.stop() }
        try await PageFixtures.onPage(engine, server, path: "/header") { page in
            for policy in Self.policies {
                _ = try await page.open(server.url(policy.path))
                let title = try await page.script("return document.title")
                #expect(title.value != nil && title.error == nil, "\(policy.path): \(String(describing: title.error))")
                for sample in Self.cases {
                    let result = try await page.script(sample.code)
                    let label = "\(policy.path) \(sample.code.debugDescription)"
                    #expect(result.error?.name == sample.name, "\(label): \(String(describing: result.error))")
                    #expect(result.error?.line == sample.line, "\(label)")
                    if let column = sample.column {
                        #expect(result.error?.column == column, "\(label)")
                    } else {
                        #expect(result.error?.column != nil, "\(label)")
                    }
                    #expect(result.error?.message.contains("\n") == false, "\(label): messages are one line of text")
                }
                // The page's policy stays in force on every engine: `eval` inside the user's code is
                // the page's to allow. Firefox compiles WebDriver's scripts outside the page's
                // policy, as it does an extension's content scripts: there the user's own `eval`
                // works, and the page's code stays under its policy (HostilePageTests).
                let evalError = try await page.script("return eval('1 + 1')")
                guard engine != .firefox else {
                    #expect(evalError.value == .integer(2), "\(policy.path): \(String(describing: evalError))")
                    continue
                }
                #expect(evalError.error?.name == "EvalError", "\(engine) \(policy.path): \(String(describing: evalError))")
                #expect(evalError.error?.line == 1)
                #expect(evalError.error?.message.hasSuffix("\n") == false)
            }
        }
    }

    /// An error's stack names the user's frames at the user's lines, as the error's own position
    /// does, and none of PageScript's (its runtime, the driver's wrappers).
    @Test(arguments: PageFixtures.everyEngine)
    func stacksShowTheUsersFramesOnly(engine: Engine) async throws {
        let server = try LoopbackServer(responses: ["/": LoopbackResponse(html: "<!doctype html><title>Stacks</title><p>x</p>")])
        defer { server.stop() }
        try await PageFixtures.onPage(engine, server) { page in
            let result = try await page.run(script: "let a = 1;\nfunction f() { throw new Error(\"x\") }\nf()", mode: .console)
            let error = try #require(result.error)
            let column = try #require(error.column)
            let frames = (error.stack ?? "").split(separator: "\n").map(String.init)
            #expect(frames.first == "f (line 2, column \(column))", "\(engine): \(frames)")
            // JavaScriptCore names no place for the script's outer frame; V8 and SpiderMonkey do.
            if engine != .webkit {
                #expect(frames == ["f (line 2, column \(column))", "(anonymous) (line 3, column 1)"], "\(frames)")
            } else {
                #expect(frames == ["f (line 2, column \(column))", "(anonymous) (your script)"], "\(frames)")
            }
            for word in ["runScript", "beginRun", "evaluateJavaScriptFunction", "pagescript-", "Action"] {
                #expect(!(error.stack ?? "").contains(word), "\(engine): \(word) in \(frames)")
            }
        }
    }

    /// Syntax errors speak of the user's text: nothing of the `return` PageScript puts before the
    /// last expression.
    @Test(arguments: PageFixtures.everyEngine)
    func syntaxErrorsSayNothingOfTheWrapping(engine: Engine) async throws {
        let server = try LoopbackServer(responses: ["/": LoopbackResponse(html: "<!doctype html><title>Syntax</title><p>x</p>")])
        defer { server.stop() }
        try await PageFixtures.onPage(engine, server) { page in
            for code in ["foo bar;", "const a = 1;\nyield 3", "await null; x 2"] {
                let error = try await page.run(script: code, mode: .console).error
                #expect(error?.name == "SyntaxError", "\(engine) \(code.debugDescription): \(String(describing: error))")
                #expect(error?.message.contains("return") == false, "\(engine) \(code.debugDescription): \(String(describing: error?.message))")
            }
            // The user's own return keeps the engine's words.
            let own = try await page.run(script: "function f() { return a b }", mode: .console).error
            #expect(own?.name == "SyntaxError" && own?.line == 1, "\(String(describing: own))")
            if engine == .webkit { #expect(own?.message.contains("return statement") == true, "\(String(describing: own))") }
        }
    }
}
