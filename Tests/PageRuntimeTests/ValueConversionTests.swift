import Engines
import Foundation
import SystemSupport
import TestSupport
import Testing
@testable import PageRuntime

/// Values that resist being made JSON-safe are converted as far as they can be and the rest is
/// marked; large node lists are described in one pass.
@Suite(.serialized)
struct ValueConversionTests {
    @Test(arguments: PageFixtures.engines)
    func valuesThatThrowAreMarkedNotFatal(engine: Engine) async throws {
        let server = try LoopbackServer(responses: PageFixtures.strictPage(title: "Values", body: "<p class=\"a  b\">t</p><!--note--><svg class=\"icon\"></svg>"))
        defer { server.stop() }
        try await PageFixtures.onPage(engine, server) { page in
            let result = try await page.script("""
                const revocable = Proxy.revocable({}, {});
                revocable.revoke();
                const deep = {}; let cursor = deep;
                for (let i = 0; i < 80; i++) { cursor.next = {}; cursor = cursor.next; }
                const host = document.createElement("div");
                const shadow = host.attachShadow({mode: "open"});
                return {
                  getter: { get bad() { throw new TypeError("no getter"); }, ok: 1 },
                  toJSON: [1, { toJSON() { throw new RangeError("no toJSON"); } }],
                  revoked: revocable.proxy,
                  undefinedMember: { gone: undefined, kept: null },
                  map: new Map([[{k: 1}, "object key"], [2, "number key"]]),
                  typed: new Uint8Array([1, 2, 3]),
                  symbol: Symbol("s"),
                  infinity: -Infinity,
                  deep,
                  comment: document.body.childNodes[1],
                  doctype: document.doctype,
                  shadow,
                  svg: document.querySelector("svg"),
                  spaced: document.querySelector("p"),
                  attribute: document.querySelector("p").attributes[0],
                  ownToJSON: { toJSON() { return "mine"; } },
                  date: new Date(NaN)
                };
                """)
            #expect(result.error == nil, "\(String(describing: result.error))")
            let value = try #require(result.value)
            #expect(value["getter"] == ["bad": "[Thrown: TypeError: no getter]", "ok": 1])
            #expect(value["toJSON"] == [1, "[Thrown: RangeError: no toJSON]"])
            #expect(value["revoked"]?.stringValue?.hasPrefix("[Thrown: TypeError") == true)
            #expect(value["undefinedMember"] == ["kept": .null])
            #expect(value["map"] == ["{\"k\":1}": "object key", "2": "number key"])
            #expect(value["typed"] == [1, 2, 3])
            #expect(value["symbol"] == "Symbol(s)")
            #expect(value["infinity"] == "-Infinity")
            #expect(String(describing: value["deep"]).contains("[Nested too deep]"))
            #expect(value["comment"] == ["$node": "<!--note-->"])
            #expect(value["doctype"] == ["$node": "<!DOCTYPE html>"])
            #expect(value["shadow"] == ["$node": "#shadow-root (open)"])
            #expect(value["svg"] == ["$node": "<svg.icon>"])
            #expect(value["spaced"] == ["$node": "<p.a.b>"])
            #expect(value["attribute"] == ["$node": "#attribute class=\"a  b\""])
            #expect(value["ownToJSON"] == "mine")
            #expect(value["date"] == "Invalid Date")
        }
    }

    /// 70,000 nodes come back described, each as a node; the time against counting them is
    /// measured by `pagescript bench`-style timing in the report, not asserted here.
    @Test(arguments: PageFixtures.engines)
    func seventyThousandNodesComeBackDescribed(engine: Engine) async throws {
        let builder = "for (let i = 0; i < 70000; i++) { const d = document.createElement('div'); d.id = 'n' + i; d.className = 'row item'; document.body.appendChild(d); }"
        let server = try LoopbackServer(responses: PageFixtures.strictPage(title: "Many", script: "addEventListener('DOMContentLoaded', function () { \(builder) });"))
        defer { server.stop() }
        try await PageFixtures.onPage(engine, server, scriptTimeout: 60) { page in
            let result = try await page.script("return document.querySelectorAll('div')")
            let nodes = try #require(result.value?.arrayValue)
            #expect(nodes.count == 70000)
            #expect(nodes.first == ["$node": "<div#n0.row.item>"])
            #expect(nodes.last == ["$node": "<div#n69999.row.item>"])
        }
    }
}
