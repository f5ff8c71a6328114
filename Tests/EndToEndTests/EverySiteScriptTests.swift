import Foundation
import SystemSupport
import TestSupport
import Testing

/// Published scripts whose rules claim every site run by themselves everywhere, as in
/// Tampermonkey, and `scripts which --all` says of every script whether it runs on a page and why
/// not.
@Suite(.serialized)
struct EverySiteScriptTests {
    /// A scratch folder with `.user.js` files imported into a library.
    final class Library {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("pagescript-everysite-\(UUID().uuidString)")
        var path: String { root.appendingPathComponent("library").path }

        init(_ scripts: [(name: String, rules: [String], body: String)]) async throws {
            let folder = root.appendingPathComponent("scripts")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for script in scripts {
                let header = "// ==UserScript==\n// @name \(script.name)\n" + script.rules.map { "// \($0)\n" }.joined()
                    + "// @run-at document-idle\n// ==/UserScript==\n"
                try Data((header + script.body + "\n").utf8).write(to: folder.appendingPathComponent("\(script.name).user.js"))
            }
            let imported = try await PageScriptBinary.outcome(of: ["scripts", "import", folder.path, "--library", path])
            #expect(imported.status == 0, "\(imported.standardError)")
        }

        deinit { try? FileManager.default.removeItem(at: root) }
    }

    @Test(arguments: ["webkit", "chromium", "firefox"])
    func scriptsThatClaimEverySiteRunByThemselvesOnAnyPage(engine: String) async throws {
        let server = try LoopbackServer(pages: ["/any/page": "<!doctype html><title>Anywhere</title><p>text</p>"])
        defer { server.stop() }
        let library = try await Library([
            (name: "glob", rules: ["@include http://*"], body: "'glob on ' + document.title"),
            (name: "regex", rules: ["@include /^https?:\\/\\//"], body: "'regex on ' + document.title"),
            (name: "secure", rules: ["@include https://*"], body: "'never on http'"),
        ])
        let outcome = try await PageScriptBinary.outcome(of: ["run", server.url("/any/page"), "--library", library.path, "--json", "--engine", engine])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any])
        let scripts = try #require(object["scripts"] as? [[String: Any]])
        #expect(scripts.map { $0["name"] as? String } == ["glob", "regex"])
        #expect(scripts.map { $0["value"] as? String } == ["glob on Anywhere", "regex on Anywhere"])
    }

    @Test func whichSaysOfEveryScriptWhetherItRunsAndWhyNot() async throws {
        let library = try await Library([
            (name: "everywhere", rules: ["@include http://*"], body: "1"),
            (name: "elsewhere", rules: ["@match https://other.example/*"], body: "2"),
            (name: "not-on-logout", rules: ["@match http://127.0.0.1/*", "@exclude */logout*"], body: "3"),
            (name: "by-hand", rules: [], body: "4"),
        ])
        let all = try await PageScriptBinary.outcome(of: ["scripts", "which", "http://127.0.0.1/logout", "--all", "--library", library.path])
        #expect(all.status == 0, "\(all.standardError)")
        let rows = all.standardOutput.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        let byName = Dictionary(uniqueKeysWithValues: rows.compactMap { row in row.count == 4 ? (row[1], (row[2], row[3])) : nil })
        #expect(byName.count == 4, "\(all.standardOutput)")
        #expect(byName["everywhere"]?.0 == "runs at document-idle")
        #expect(byName["elsewhere"]?.0 == "does not run")
        #expect(byName["elsewhere"]?.1.contains("no rule names this page: line 3: @match https://other.example/*") == true)
        #expect(byName["not-on-logout"]?.0 == "does not run")
        #expect(byName["not-on-logout"]?.1.hasPrefix("excluded by line 4: @exclude */logout*") == true)
        #expect(byName["by-hand"]?.0 == "on demand only")

        let none = try await PageScriptBinary.outcome(of: ["scripts", "which", "https://nothing.example/", "--library", library.path])
        #expect(none.status == 0)
        #expect(none.standardOutput.isEmpty)
        #expect(none.standardError.contains("no script runs automatically on https://nothing.example/"), "\(none.standardError)")

        let show = try await PageScriptBinary.outcome(of: ["scripts", "show", "everywhere", "--library", library.path])
        #expect(show.standardOutput.contains("@include http://* (as written: every http page)"), "\(show.standardOutput)")
    }
}
