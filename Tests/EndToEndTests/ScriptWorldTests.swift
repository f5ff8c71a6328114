import Foundation
import SystemSupport
import TestSupport
import Testing

/// `@inject-into` (Violentmonkey) and `@sandbox` (Tampermonkey): a script that asks for an
/// isolated world runs in one on Chromium, sharing the DOM with the page and none of its globals,
/// with its GM API; WebKit's WebDriver has none, so there it runs in the page's world and the
/// run says so. A script asking for the page's world (or nothing) gets the page's globals.
@Suite(.serialized)
struct ScriptWorldTests {
    static let scripts = [
        "// ==UserScript==\n// @name Content\n// @match http://127.0.0.1/*\n// @inject-into content\n// @grant GM_setValue\n// @grant GM_getValue\n"
            + "// ==/UserScript==\nwindow.fromContent = 1; document.body.dataset.content = 'yes'; GM_setValue('w', 7);\n"
            + "typeof window.pageGlobal + ' ' + GM_getValue('w')\n",
        "// ==UserScript==\n// @name Dom\n// @match http://127.0.0.1/*\n// @sandbox DOM\n// ==/UserScript==\ntypeof window.pageGlobal\n",
        "// ==UserScript==\n// @name Page\n// @match http://127.0.0.1/*\n// @inject-into page\n// ==/UserScript==\ntypeof window.pageGlobal\n",
    ]

    @Test(arguments: ["webkit", "chromium"])
    func scriptsRunInTheWorldTheyAskFor(engine: String) async throws {
        let server = try LoopbackServer(pages: ["/": "<!doctype html><title>Worlds</title><body><script>window.pageGlobal = 1;</script>"])
        defer { server.stop() }
        let library = FileManager.default.temporaryDirectory.appendingPathComponent("pagescript-worlds-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: library) }
        for script in Self.scripts {
            let created = try await PageScriptBinary.outcome(of: ["scripts", "new", "-e", script, "--library", library])
            #expect(created.status == 0, "\(created.standardError)")
        }
        let outcome = try await PageScriptBinary.outcome(of: [
            "run", server.url(), "--with-library", "-e", "[typeof window.fromContent, document.body.dataset.content]", "--json",
            "--library", library, "--engine", engine,
        ])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any])
        let entries = ((object["before"] as? [String: Any])?["scripts"] as? [[String: Any]]) ?? []
        func entry(_ name: String) -> [String: Any]? { entries.first { $0["name"] as? String == name } }
        func problems(_ name: String) -> [String] { (entry(name)?["userscript"] as? [String: Any])?["problems"] as? [String] ?? [] }
        #expect(entry("Page")?["value"] as? String == "number", "\(outcome.standardOutput)")
        if engine == "chromium" {
            // Isolated: the page's global is not there, the script's is not the page's, the DOM is shared.
            #expect(entry("Content")?["value"] as? String == "undefined 7", "\(outcome.standardOutput)")
            #expect(entry("Dom")?["value"] as? String == "undefined", "\(outcome.standardOutput)")
            #expect(object["value"] as? [String] == ["undefined", "yes"], "\(outcome.standardOutput)")
            #expect(problems("Content").isEmpty && problems("Dom").isEmpty, "\(outcome.standardOutput)")
        } else {
            #expect(entry("Content")?["value"] as? String == "number 7", "\(outcome.standardOutput)")
            #expect(object["value"] as? [String] == ["number", "yes"], "\(outcome.standardOutput)")
            #expect(problems("Content").contains { $0.hasPrefix("@inject-into content asks for an isolated world") }, "\(outcome.standardOutput)")
            #expect(problems("Dom").contains { $0.hasPrefix("@sandbox DOM asks for an isolated world") }, "\(outcome.standardOutput)")
        }
        #expect(problems("Page").isEmpty, "\(outcome.standardOutput)")
    }
}
