import Engines
import Foundation
import ScriptConsole
import SystemSupport
import TestSupport
import Testing
@testable import PageRuntime

/// Pages that replace the built-ins PageScript and the drivers use still get exact results,
/// console lines and errors, on both engines (each page served with a strict CSP).
@Suite(.serialized)
struct HostilePageTests {
    /// What each page does to itself before the script runs.
    static let hostilities: [(name: String, script: String)] = [
        ("JSON.stringify", "JSON.stringify = function () { return '{not json'; };"),
        ("JSON.parse", "JSON.parse = function () { return { hacked: true }; };"),
        ("JSON", "window.JSON = { stringify: function () { return 'x'; }, parse: function () { return 1; } };"),
        ("eval", "window.eval = function () { throw new Error('no eval'); };"),
        ("Function", "window.Function = function () { throw new Error('no Function'); };"),
        ("Promise subclass", "window.Promise = class extends Promise {};"),
        ("console", "window.console = { log: function () { throw new Error('no console'); } };"),
        ("Object.defineProperty", "Object.defineProperty = function () { throw new Error('no defineProperty'); }; Reflect.defineProperty = function () { return false; };"),
        ("Array.prototype.toJSON", "Array.prototype.toJSON = function () { return 'ARRAY'; };"),
        ("Object.prototype.toJSON", "Object.prototype.toJSON = function () { return 'OBJECT'; };"),
        ("Array.from", "Array.from = function () { return []; };"),
        // Every descriptor written as an object literal would inherit an accessor.
        ("Object.prototype get and set", """
            Object.prototype.get = function () { return 'trap'; };
            Object.prototype.set = function () { throw new Error('no set'); };
            """),
        ("Symbol", "window.Symbol = function () { return 'not a symbol'; };"),
        ("Object.keys", "Object.keys = function () { return ['evil']; };"),
        ("Reflect", "window.Reflect = {};"),
        ("Error.prototype getters", """
            ['name', 'message', 'stack'].forEach(function (key) {
              Object.defineProperty(Error.prototype, key, { get: function () { throw new Error('no ' + key); }, configurable: true });
            });
            """),
        ("document.createElement", "Document.prototype.createElement = function () { throw new Error('no createElement'); };"),
        ("contentWindow", """
            Object.defineProperty(HTMLIFrameElement.prototype, 'contentWindow', { get: function () { return window; } });
            Object.defineProperty(HTMLIFrameElement.prototype, 'contentDocument', { get: function () { return document; } });
            """),
        ("every insertion method", """
            Node.prototype.appendChild = function () { throw new Error('no appendChild'); };
            Node.prototype.insertBefore = function () { throw new Error('no insertBefore'); };
            Element.prototype.append = function () { throw new Error('no append'); };
            """),
    ]

    static var everything: String { hostilities.map(\.script).joined(separator: "\n") }

    static func responses() -> [String: LoopbackResponse] {
        var responses: [String: LoopbackResponse] = ["/": LoopbackResponse(html: "<title>Start</title>", headers: PageFixtures.strictPolicy)]
        let pages = hostilities + [("everything", everything), ("throwing Promise", "window.Promise = function () { throw new Error('no Promise'); };")]
        for (index, hostility) in pages.enumerated() {
            responses["/\(index)"] = LoopbackResponse(
                html: "<!doctype html><html><head><title>Hostile \(index)</title><script src=\"/\(index).js\"></script></head><body><p id=\"para\">text</p></body></html>",
                headers: PageFixtures.strictPolicy)
            responses["/\(index).js"] = LoopbackResponse(body: hostility.script, contentType: "text/javascript")
        }
        return responses
    }

    static let probe = """
        console.log("logged", {a: [1, 2]});
        console.warn(document.querySelector("p"));
        return {list: [1, {b: 2}], node: document.querySelector("p"), text: "x\\"y", n: 1.5, nested: {deep: [null, true]}};
        """
    static let expectedValue: JSONValue = [
        "list": [1, ["b": 2]], "node": ["$node": "<p#para>"], "text": "x\"y", "n": 1.5, "nested": ["deep": [.null, true]],
    ]

    @Test(arguments: PageFixtures.everyEngine)
    func hostilePagesStillGetExactResults(engine: Engine) async throws {
        let server = try LoopbackServer(responses: Self.responses())
        defer { server.stop() }
        let cases = Self.hostilities.map(\.name) + ["everything"]
        try await PageFixtures.onPage(engine, server) { page in
            for (index, name) in cases.enumerated() {
                let context = try await page.open(server.url("/\(index)"))
                #expect(context.title == "Hostile \(index)", "\(name)")
                let result = try await page.script(Self.probe)
                #expect(result.error == nil, "\(name): \(String(describing: result.error))")
                #expect(result.value == Self.expectedValue, "\(name)")
                #expect(result.console == [
                    ConsoleMessage(level: .log, message: "logged {\"a\":[1,2]}"),
                    ConsoleMessage(level: .warn, message: "<p#para>"),
                ], "\(name)")

                let thrown = try await page.script("const answer = 42;\nthrow new RangeError(\"far\");")
                #expect(thrown.error?.name == "RangeError", "\(name)")
                #expect(thrown.error?.message == "far", "\(name)")
                #expect(thrown.error?.line == 2, "\(name)")

                let awaited = try await page.script("return (async () => { await null; console.info('after'); return 42; })()")
                #expect(awaited.value == 42, "\(name)")
                #expect(awaited.console == [ConsoleMessage(level: .info, message: "after")], "\(name)")
            }
        }
    }

    /// WebKitWebDriver starts every call with the page's `Promise`: a page that made it throw
    /// breaks the driver beyond repair, which is the page interfering (exit 1), never an engine
    /// failure. Chromium's driver keeps its own.
    @Test(arguments: PageFixtures.engines)
    func aPageThatBreaksTheDriverIsReportedAsInterfering(engine: Engine) async throws {
        let server = try LoopbackServer(responses: Self.responses())
        defer { server.stop() }
        let index = Self.hostilities.count + 1
        let outcome = try await PageFixtures.withPage(engine, url: server.url("/")) { page -> String in
            do {
                _ = try await page.open(server.url("/\(index)"))
                let result = try await page.script("return document.title")
                return result.value?.stringValue ?? "no value"
            } catch {
                return "\(error)"
            }
        }
        if engine == .webkit {
            #expect(outcome.hasPrefix("the page interfered with PageScript"), "\(outcome)")
        } else {
            #expect(outcome == "Hostile \(index)")
        }
    }
}
