import Foundation
import SystemSupport
import TestSupport
import Testing

/// browse shows what a script logs after its run ended, as it happens, under the script's name:
/// from a timer, and from the callback of a `GM_xmlhttpRequest` the timer made, long after the
/// run's reply; on both engines.
@Suite(.serialized)
struct BrowseLaterOutputTests {
    @Test(arguments: ["webkit", "chromium"])
    func consoleLinesFromTimersAndCallbacksAreShownUnderTheScriptsName(engine: String) throws {
        let server = try LoopbackServer(pages: ["/": "<!doctype html><title>Later</title>", "/data": "<title>data</title>"])
        defer { server.stop() }
        let library = FileManager.default.temporaryDirectory.appendingPathComponent("pagescript-later-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: library) }
        let script = "// ==UserScript==\n// @name Ticker\n// @match \(server.url("/").dropLast())/\n// @grant GM_xmlhttpRequest\n// ==/UserScript==\n"
            + "setTimeout(function () {\n  console.log('tick', 1);\n"
            + "  GM_xmlhttpRequest({ method: 'GET', url: '/data', onload: function (r) { console.warn('loaded', r.status); } });\n"
            + "}, 1500);\n'started'\n"
        #expect(try PageScriptBinary.run(["scripts", "new", "-e", script, "--library", library]).status == 0)
        let browse = try BrowseCommandTests.BrowseSession([server.url("/"), "--engine", engine, "--library", library], withStandardError: true) {
            $0 == "Ticker: console.warn: loaded 200"
        }
        let lines = browse.lines
        #expect(browse.sawTheLine, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("ran\t") && $0.hasSuffix("\t\"started\"") }, "\(lines)")
        #expect(lines.filter { $0 == "Ticker: console.log: tick 1" }.count == 1, "\(lines)")
        #expect(browse.leftovers.isEmpty, "\(browse.leftovers)")
    }
}
