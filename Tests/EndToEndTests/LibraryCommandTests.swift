import Foundation
import SystemSupport
import TestSupport
import Testing

/// The script library from the command line, with real files and real engines.
@Suite(.serialized)
struct LibraryCommandTests {
    /// The public vectors of match-patterns.md: pattern, URLs that match, URLs that do not.
    static let vectors: [(String, [String], [String])] = [
        ("<all_urls>", ["http://example.org/", "file:///foo/bar"], []),
        ("*://*/*", ["http://example.org/", "https://a.org/some/path/"], ["ftp://ftp.example.org/", "file:///a/"]),
        ("https://*/foo*", ["https://www.google.com/foo", "https://www.google.com/foobar"], ["http://www.google.com/foo", "https://www.google.com/"]),
        ("http://*.google.com/foo*bar", ["http://google.com/foobar", "http://www.google.com/foo?bar", "http://monkey.images.google.com/foooobar"],
         ["http://wwwgoogle.com/foobar", "http://yahoo.com/foobar"]),
        ("*://mozilla.org/", ["http://mozilla.org/", "https://mozilla.org/"], ["http://a.mozilla.org/", "http://mozilla.org/a"]),
        ("https://*/path", ["https://mozilla.org/path"], ["https://mozilla.org/path/", "https://mozilla.org/path?foo=1"]),
        ("https://mozilla.org/a/b/c/", ["https://mozilla.org/a/b/c/#section1"], []),
        ("http://127.0.0.1/*", ["http://127.0.0.1", "http://127.0.0.1/?bar=1"], ["http://127.0.0.2/"]),
        ("http://*.0.0.1/*", [], ["http://127.0.0.1"]),
        ("http://www.example.com:80/foo", ["http://www.example.com/foo"], ["http://www.example.com:8080/foo"]),
        ("http://www.example.com:*/foo", ["http://www.example.com:8080/foo", "http://www.example.com/foo"], []),
        ("*://example.com/*", ["http://example.com./"], []),
        ("*://*.gOoGle.com/*", ["https://maps.google.com"], ["https://example.com"]),
        ("file:///foo*", ["file:///foo", "file:///foobar", "file://localhost/foo"], ["file://foo"]),
        // An attacker's: a bank's script must not reach pages the attacker controls.
        ("https://*.bank.example/*", ["https://www.bank.example/login", "https://BANK.example./"],
         ["https://bank.example.evil.test/", "https://evilbank.example/", "https://bank.example@evil.test/",
          "https://evil.test/?https://bank.example/", "https://evil.test/#https://www.bank.example/", "http://www.bank.example/",
          "https://xn--bnk-sna.example/", "https://bаnk.example/"]),
    ]

    static let invalid = [
        "http", "http:", "http://", "http:///", "http://:1234/", "http://*./", "http://*foo/bar", "http://foo.*.bar/baz",
        "http://bar", "http://foo:/", "http://foo:123456/", "http://foo:80:80/x", "http://[]:8888/*", "https://mozilla.org",
        "*://*", "http*://mozilla.org/", "https://www.example*/*",
    ]

    @Test(arguments: vectors.indices)
    func everyReferenceVectorHoldsThroughTheCommand(index: Int) async throws {
        let (pattern, matching, notMatching) = Self.vectors[index]
        let outcome = try await PageScriptBinary.outcome(of: ["match", pattern] + matching + notMatching)
        // Like grep: 0 when a URL matched, 1 when none did.
        #expect(outcome.status == (matching.isEmpty ? 1 : 0), "\(outcome.standardError)")
        let expected = matching.map { "match\t\($0)" } + notMatching.map { "no match\t\($0)" }
        #expect(outcome.standardOutput.split(separator: "\n").map(String.init) == expected)
    }

    @Test(arguments: invalid)
    func invalidPatternsExitTwoWithAReason(pattern: String) async throws {
        let outcome = try await PageScriptBinary.outcome(of: ["match", pattern, "http://example.com/"])
        #expect(outcome.status == 2)
        #expect(outcome.standardOutput.isEmpty)
        #expect(outcome.standardError.contains("refused"), "\(outcome.standardError)")
    }

    /// `save-for URL` writes `@match` lines for the site and no `@run-at`: like any manager,
    /// PageScript then runs the script there at document-idle, and on no other host or port.
    @Test(arguments: ["webkit", "chromium"])
    func theSiteScriptRunsOnItsSiteAndNotOnALookAlike(engine: String) async throws {
        let server = try LoopbackServer(pages: ["/": "<!doctype html><title>Shop</title><p>shop</p>"])
        defer { server.stop() }
        let otherPort = try LoopbackServer(pages: ["/": "<!doctype html><title>Other</title><p>other</p>"])
        defer { otherPort.stop() }
        let library = FileManager.default.temporaryDirectory.appendingPathComponent("pagescript-library-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: library) }
        let site = "http://127.0.0.1:\(server.port)/"
        let saved = try await PageScriptBinary.outcome(of: ["scripts", "save-for", site, "-e", "document.title + ' seen'", "--library", library])
        #expect(saved.status == 0, "\(saved.standardError)")
        let id = saved.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)

        let onSite = try await PageScriptBinary.outcome(of: ["run", site, "--library", library, "--json", "--engine", engine])
        #expect(onSite.status == 0, "\(onSite.standardError)")
        #expect(onSite.standardOutput.contains("\"value\":\"Shop seen\""), "\(onSite.standardOutput)")

        // Same server, another host name: a different site, so the script must not run.
        let lookAlike = try await PageScriptBinary.outcome(of: ["run", "http://localhost:\(server.port)/", "--library", library, "--json", "--engine", engine])
        #expect(lookAlike.status == 0, "\(lookAlike.standardError)")
        #expect(lookAlike.standardOutput.contains("\"scripts\":[]"), "\(lookAlike.standardOutput)")
        // Same host, another port: another application, so the script must not run either.
        let elsewhere = try await PageScriptBinary.outcome(of: ["run", otherPort.url(), "--library", library, "--json", "--engine", engine])
        #expect(elsewhere.status == 0, "\(elsewhere.standardError)")
        #expect(elsewhere.standardOutput.contains("\"scripts\":[]"), "\(elsewhere.standardOutput)")

        let which = try await PageScriptBinary.outcome(of: ["scripts", "which", "http://localhost:\(server.port)/", "--library", library])
        #expect(which.standardOutput.isEmpty)
        let whichOnSite = try await PageScriptBinary.outcome(of: ["scripts", "which", site, "--library", library])
        #expect(whichOnSite.standardOutput.hasPrefix("\(id)\t127.0.0.1:\(server.port)\truns at document-idle\tline "), "\(whichOnSite.standardOutput)")

        // By hand, a script runs on any page (the Action menu model).
        let byHand = try await PageScriptBinary.outcome(of: ["run", "http://localhost:\(server.port)/", "--script", id, "--library", library, "--engine", engine])
        #expect(byHand.standardOutput == "\"Shop seen\"\n", "\(byHand.standardError)")

        // Switched off for the site: nothing runs there, and the script's file is unchanged.
        let before = try await PageScriptBinary.outcome(of: ["scripts", "show", id, "--source", "--library", library]).standardOutput
        _ = try await PageScriptBinary.outcome(of: ["scripts", "disable-for", id, site, "--library", library])
        let offSite = try await PageScriptBinary.outcome(of: ["run", site, "--library", library, "--json", "--engine", engine])
        #expect(offSite.standardOutput.contains("\"scripts\":[]"), "\(offSite.standardOutput)")
        #expect(try await PageScriptBinary.outcome(of: ["scripts", "show", id, "--source", "--library", library]).standardOutput == before)
    }

    /// A script that moves its page on in the same document (`pushState`) does not stop the
    /// scripts after it, planned for the address the document had: Tampermonkey runs every script
    /// its document matched. A page that leaves for another document still takes them with it.
    @Test(arguments: ["webkit", "chromium"])
    func aPushStateBetweenADocumentsScriptsRunsTheLaterOnes(engine: String) async throws {
        let server = try LoopbackServer(pages: ["/shop": "<!doctype html><title>Shop</title>", "/other": "<!doctype html><title>Other</title>"])
        defer { server.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pagescript-library-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let page = server.url("/shop")
        for (library, move) in [("moves", "history.pushState({}, '', '/shop/cart')"), ("leaves", "location.href = '/other'")] {
            for (name, code) in [("A", move + "; 'moved'"), ("B", "location.pathname")] {
                let created = try await PageScriptBinary.outcome(of: ["scripts", "new", name, "--match", page, "-e", code, "--library", folder + "/" + library])
                #expect(created.status == 0, "\(created.standardError)")
            }
        }
        let moved = try await PageScriptBinary.outcome(of: ["run", page, "--library", folder + "/moves", "--json", "--engine", engine])
        #expect(moved.status == 0, "\(moved.standardOutput)")
        let scripts = try #require(try JSONValue(parsing: moved.standardOutput)["scripts"]?.arrayValue)
        #expect(scripts.map { $0["value"]?.stringValue } == ["moved", "/shop/cart"], "\(moved.standardOutput)")
        let left = try await PageScriptBinary.outcome(of: ["run", page, "--library", folder + "/leaves", "--json", "--engine", engine])
        let afterLeaving = try #require(try JSONValue(parsing: left.standardOutput)["scripts"]?.arrayValue)
        #expect(afterLeaving.count == 2 && afterLeaving[1]["value"]?.stringValue != "/other", "\(left.standardOutput)")
    }

    @Test func oneScriptsExceptionDoesNotStopTheOthers() async throws {
        let server = try LoopbackServer(pages: ["/": "<!doctype html><title>Page</title>"])
        defer { server.stop() }
        let library = FileManager.default.temporaryDirectory.appendingPathComponent("pagescript-library-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: library) }
        let pattern = "http://127.0.0.1/*"
        for (name, code) in [("first", "throw new TypeError('first fails')"), ("second", "'second ran'")] {
            let created = try await PageScriptBinary.outcome(of: ["scripts", "new", name, "--match", pattern, "--run-at", "document-idle", "-e", code, "--library", library])
            #expect(created.status == 0, "\(created.standardError)")
        }
        let outcome = try await PageScriptBinary.outcome(of: ["run", server.url(), "--library", library, "--engine", "chromium"])
        #expect(outcome.status == 1)
        #expect(outcome.standardError.contains("first fails"))
        #expect(outcome.standardOutput.contains("\"second ran\""))
    }

    @Test func examplesAreListedShownAndRun() async throws {
        let list = try await PageScriptBinary.outcome(of: ["examples"])
        let names = list.standardOutput.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }
        #expect(names.count >= 8)
        let shown = try await PageScriptBinary.outcome(of: ["examples", "show", "word-count"])
        #expect(shown.standardOutput.contains("==UserScript=="))
        let server = try LoopbackServer(pages: ["/": "<!doctype html><title>Words</title><p>one two three four</p>"])
        defer { server.stop() }
        let counted = try await PageScriptBinary.outcome(of: ["run", server.url(), "--example", "word-count", "--engine", "chromium"])
        #expect(counted.status == 0, "\(counted.standardError)")
        #expect(counted.standardOutput.contains("\"words\":4"), "\(counted.standardOutput)")
    }
}
