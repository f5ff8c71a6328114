import Foundation
import SystemSupport
import TestSupport
import Testing

/// What a userscript's `GM_xmlhttpRequest` callbacks log after the script returned is part of
/// its run, in `run`'s output and in `--json`, as the page's console would show it in
/// Tampermonkey: the run lasts until the requests it started have called back.
struct LateConsoleCommandTests {
    static let script = """
        // ==UserScript==
        // @name Late logger
        // @grant GM_xmlhttpRequest
        // @grant GM.xmlHttpRequest
        // @connect 127.0.0.1
        // ==/UserScript==
        GM_xmlhttpRequest({ url: "/words.txt", onload: response => {
            console.log("loaded " + response.responseText);
            alert("done");
            GM_xmlhttpRequest({ url: "/words.txt", onload: () => console.info("second callback") });
        } });
        GM.xmlHttpRequest({ url: "/words.txt" }).then(response => console.warn("promised " + response.responseText));
        "started"
        """

    @Test(arguments: ["webkit", "chromium"])
    func aRequestsCallbacksLogIntoTheRun(engine: String) async throws {
        let server = try LoopbackServer(responses: [
            "/": LoopbackResponse(html: "<!doctype html><title>Page</title>"),
            "/words.txt": LoopbackResponse(body: "alpha beta", contentType: "text/plain"),
        ])
        defer { server.stop() }
        let json = try await PageScriptBinary.outcome(of: ["run", server.url(), "-e", Self.script, "--json", "--engine", engine])
        #expect(json.status == 0, "\(json.standardError)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        #expect(object["value"] as? String == "started")
        let console = (object["console"] as? [[String: Any]] ?? []).map { "\($0["level"] ?? ""): \($0["message"] ?? "")" }
        #expect(Set(console) == ["log: loaded alpha beta", "info: second callback", "warn: promised alpha beta"], "\(console)")
        #expect((object["dialogs"] as? [[String: Any]])?.first?["message"] as? String == "done")

        let text = try await PageScriptBinary.outcome(of: ["run", server.url(), "-e", Self.script, "--engine", engine])
        #expect(text.status == 0, "\(text.standardError)")
        #expect(text.standardError.contains("console.log: loaded alpha beta"), "\(text.standardError)")
        #expect(text.standardError.contains("console.info: second callback"), "\(text.standardError)")
    }
}
