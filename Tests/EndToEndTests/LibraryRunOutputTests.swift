import Foundation
import SystemSupport
import TestSupport
import Testing

/// What `run URL` prints for the library's scripts, in both modes.
@Suite(.serialized)
struct LibraryRunOutputTests {
    @Test func jsonHasOneEntryPerScriptWithItsResultFields() async throws {
        let server = try LoopbackServer(pages: ["/": "<!doctype html><title>Page</title>"])
        defer { server.stop() }
        let library = FileManager.default.temporaryDirectory.appendingPathComponent("pagescript-output-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: library) }
        for (name, code) in [("a-throws", "console.log('before'); throw new TypeError('no')"), ("b-returns", "console.warn('w'); 6 * 7")] {
            let created = try await PageScriptBinary.outcome(of: ["scripts", "new", name, "--match", "http://127.0.0.1/*", "--run-at", "document-idle", "-e", code, "--library", library])
            #expect(created.status == 0, "\(created.standardError)")
        }
        let outcome = try await PageScriptBinary.outcome(of: ["run", server.url(), "--library", library, "--json", "--engine", "chromium"])
        #expect(outcome.status == 1, "\(outcome.standardError)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any])
        #expect(object["url"] as? String == server.url())
        #expect(object["title"] as? String == "Page")
        let scripts = try #require(object["scripts"] as? [[String: Any]])
        try #require(scripts.count == 2)
        for entry in scripts {
            #expect(Set(entry.keys) == ["id", "name", "pattern", "frame", "value", "console", "dialogs", "error", "userscript"])
            #expect(entry["frame"] is NSNull)
            #expect(entry["pattern"] as? String == "http://127.0.0.1/*")
        }
        let thrown = try #require(scripts.first { $0["name"] as? String == "a-throws" })
        #expect(thrown["value"] is NSNull)
        #expect(thrown["console"] as? [[String: String]] == [["level": "log", "message": "before"]])
        let error = try #require(thrown["error"] as? [String: Any])
        #expect(error["name"] as? String == "TypeError")
        #expect(error["message"] as? String == "no")
        let returned = try #require(scripts.first { $0["name"] as? String == "b-returns" })
        #expect(returned["value"] as? Int == 42)
        #expect(returned["error"] is NSNull)
        #expect(returned["console"] as? [[String: String]] == [["level": "warn", "message": "w"]])

        let plain = try await PageScriptBinary.outcome(of: ["run", server.url(), "--library", library, "--engine", "chromium"])
        #expect(plain.status == 1)
        #expect(plain.standardOutput == "42\n")
        let lines = plain.standardError.split(separator: "\n").map(String.init)
        #expect(lines.first == "Page <\(server.url())>")
        #expect(lines.contains("console.log: before"))
        #expect(lines.contains { $0.hasPrefix("TypeError: no") })
        #expect(lines.contains("console.warn: w"))
    }

    /// The scripts are read for the address asked for before the browser starts; a page that
    /// lands elsewhere (a redirect) gets the scripts of the address it landed on, not those read.
    @Test(arguments: ["webkit", "chromium"])
    func aRedirectedPageGetsTheScriptsOfWhereItLanded(engine: String) async throws {
        let server = try LoopbackServer(responses: [
            "/start": LoopbackResponse(redirectTo: "/landed"),
            "/landed": LoopbackResponse(html: "<!doctype html><title>Landed</title>"),
        ])
        defer { server.stop() }
        let library = FileManager.default.temporaryDirectory.appendingPathComponent("pagescript-landed-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: library) }
        for (name, path) in [("for-start", "/start"), ("for-landing", "/landed"), ("for-both", "/*")] {
            let created = try await PageScriptBinary.outcome(of: [
                "scripts", "new", name, "--match", "http://127.0.0.1\(path)", "--run-at", "document-idle", "-e", "location.pathname", "--library", library,
            ])
            #expect(created.status == 0, "\(created.standardError)")
        }
        let outcome = try await PageScriptBinary.outcome(of: ["run", server.url("/start"), "--library", library, "--json", "--engine", engine])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any])
        #expect(object["url"] as? String == server.url("/landed"))
        let scripts = try #require(object["scripts"] as? [[String: Any]])
        #expect(Set(scripts.compactMap { $0["name"] as? String }) == ["for-landing", "for-both"], "\(engine): \(outcome.standardOutput)")
        #expect(scripts.allSatisfy { $0["value"] as? String == "/landed" })
    }

    /// One way to combine: the library's matching scripts (`--with-library`) or one chosen script
    /// (`--script`) run first, then `-e` code inspects the page they changed, in the same run.
    /// Standard output holds the inspecting code's value alone; the scripts' values go to
    /// standard error; `--json` is the code's object with `before` holding what ran first.
    @Test(arguments: ["webkit", "chromium"])
    func libraryScriptsThenCodeThatInspectsWhatTheyDid(engine: String) async throws {
        let server = try LoopbackServer(pages: ["/": "<!doctype html><title>Page</title><body></body>"])
        defer { server.stop() }
        let library = FileManager.default.temporaryDirectory.appendingPathComponent("pagescript-then-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: library) }
        let banner = "document.body.insertAdjacentHTML('beforeend', '<p class=banner>hi</p>'); 'added'"
        for (name, code) in [("banner", banner), ("logger", "console.log('logged'); 7")] {
            let created = try await PageScriptBinary.outcome(of: ["scripts", "new", name, "--match", "http://127.0.0.1/*", "-e", code, "--library", library])
            #expect(created.status == 0, "\(created.standardError)")
        }
        let inspect = "document.querySelectorAll('.banner').length"
        let all = try await PageScriptBinary.outcome(of: ["run", server.url(), "--with-library", "-e", inspect, "--library", library, "--engine", engine])
        #expect(all.status == 0, "\(all.standardError)")
        #expect(all.standardOutput == "1\n", "\(all.standardError)")
        let lines = all.standardError.split(separator: "\n").map(String.init)
        #expect(lines.contains("→ \"added\"") && lines.contains("→ 7") && lines.contains("console.log: logged"), "\(lines)")

        let json = try await PageScriptBinary.outcome(of: ["run", server.url(), "--with-library", "-e", inspect, "--json", "--library", library,
                                                           "--engine", engine])
        #expect(json.status == 0, "\(json.standardError)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        #expect(object["value"] as? Int == 1 && object["url"] as? String == server.url())
        let before = try #require(object["before"] as? [String: Any])
        let scripts = try #require(before["scripts"] as? [[String: Any]])
        #expect(Set(scripts.compactMap { $0["name"] as? String }) == ["banner", "logger"], "\(json.standardOutput)")

        // One chosen script, then the code: the other library script does not run.
        let one = try await PageScriptBinary.outcome(of: ["run", server.url(), "--script", "banner", "-e", "[\(inspect), typeof window.x]",
                                                          "--json", "--library", library, "--engine", engine])
        #expect(one.status == 0, "\(one.standardError)")
        let chosen = try #require(try JSONSerialization.jsonObject(with: Data(one.standardOutput.utf8)) as? [String: Any])
        #expect(chosen["value"] as? [AnyHashable] == [1, "undefined"], "\(one.standardOutput)")
        #expect((chosen["before"] as? [String: Any])?["value"] as? String == "added", "\(one.standardOutput)")

        // The inspecting code is console code; a failing one fails the run (exit 1).
        let failing = try await PageScriptBinary.outcome(of: ["run", server.url(), "--with-library", "-e", "missing.thing", "--library", library,
                                                              "--engine", engine])
        #expect(failing.status == 1 && failing.standardError.contains("ReferenceError"), "\(failing.standardError)")
    }

    /// What cannot be combined says so before any browser starts.
    @Test func combinationsThatCannotBeAreUsageErrors() async throws {
        let library = FileManager.default.temporaryDirectory.appendingPathComponent("pagescript-then-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: library) }
        for arguments in [["--with-library"], ["--with-library", "--script", "x", "-e", "1"], ["--script", "x", "--example", "y"]] {
            let outcome = try await PageScriptBinary.outcome(of: ["run", "http://127.0.0.1:9/"] + arguments + ["--library", library])
            #expect(outcome.status == 2, "\(arguments): \(outcome.standardError)")
            #expect(outcome.standardError.contains("--with-library") || outcome.standardError.contains("give one script"), "\(outcome.standardError)")
        }
        let userscript = "// ==UserScript==\n// @name U\n// ==/UserScript==\n1"
        let created = try await PageScriptBinary.outcome(of: ["scripts", "new", "banner", "-e", "1", "--library", library])
        #expect(created.status == 0, "\(created.standardError)")
        let block = try await PageScriptBinary.outcome(of: ["run", "http://127.0.0.1:9/", "--script", "banner", "-e", userscript, "--library", library])
        #expect(block.status == 2 && block.standardError.contains("==UserScript=="), "\(block.standardError)")
    }
}
