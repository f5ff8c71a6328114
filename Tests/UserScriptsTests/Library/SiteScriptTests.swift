import Foundation
import TestSupport
import Testing
@testable import UserScripts

struct SiteScriptTests {
    @Test(arguments: [
        ("https://example.com/a?b", "example.com", ["http://example.com:80/*", "https://example.com:443/*"]),
        ("http://EXAMPLE.com:80/", "example.com", ["http://example.com:80/*", "https://example.com:443/*"]),
        ("http://localhost:3000/app", "localhost:3000", ["*://localhost:3000/*"]),
        ("https://example.com:80/", "example.com:80", ["https://example.com:80/*"]),
        ("http://example.com:443/", "example.com:443", ["http://example.com:443/*"]),
        ("http://[0:0::1]:8080/", "[::1]:8080", ["*://[::1]:8080/*"]),
        ("https://[::1]/", "[::1]", ["http://[::1]:80/*", "https://[::1]:443/*"]),
        ("http://0x7f.1/", "127.0.0.1", ["http://127.0.0.1:80/*", "https://127.0.0.1:443/*"]),
        ("https://bücher.example/", "xn--bcher-kva.example", ["http://xn--bcher-kva.example:80/*", "https://xn--bcher-kva.example:443/*"]),
        ("file:///home/me/page.html", "file://", ["file:///*"]),
    ])
    func aSiteIsAHostAndPort(_ url: String, _ site: String, _ patterns: [String]) throws {
        let parsed = try PageURL(url)
        let value = Site(url: parsed)
        #expect(value.description == site)
        #expect(value.matchPatterns.map(\.description) == patterns)
        #expect(try Site(site) == value)
        // The patterns cover the page itself, and the site's patterns cover exactly its pages.
        #expect(value.matchPatterns.contains { $0.matches(parsed) })
    }

    @Test(arguments: [
        ("https://example.com/", "http://example.com/x", true),
        ("https://example.com/", "https://example.com:8443/", false),
        ("https://example.com/", "https://www.example.com/", false),
        ("http://localhost:3000/", "https://localhost:3000/", true),
        ("http://localhost:3000/", "http://localhost:8080/", false),
        ("http://localhost:3000/", "http://localhost/", false),
        ("https://example.com:80/", "http://example.com/", false),
    ])
    func siteScriptPatternsCoverTheSiteAndNothingElse(_ site: String, _ other: String, _ covered: Bool) throws {
        let patterns = Site(url: try PageURL(site)).matchPatterns
        let url = try PageURL(other)
        #expect(patterns.contains { $0.matches(url) } == covered)
        #expect(Site(url: try PageURL(site)).contains(url) == covered)
    }

    @Test func savingForASiteCreatesThenUpdatesItsScript() throws {
        let folder = try TemporaryDirectory()
        let library = try ScriptLibrary(directory: folder.url)
        let page = try PageURL("http://localhost:3000/dashboard")
        #expect(try library.scriptForSite(url: page) == nil)

        let created = try library.saveForSite(url: page, code: "document.title\n")
        #expect(created.name == "localhost:3000")
        #expect(created.script.values(for: "match") == ["*://localhost:3000/*"])
        #expect(created.script.runAt == nil)
        #expect(created.interpretation.runMode == .automatic(.documentIdle))
        #expect(try library.which(url: page).map(\.script.id) == [created.id])
        #expect(try library.which(url: try PageURL("http://localhost:8080/dashboard")).isEmpty)
        #expect(created.script.text.hasSuffix("// ==/UserScript==\n\ndocument.title\n"))
        #expect(try library.scriptForSite(url: try PageURL("https://localhost:3000/other"))?.id == created.id)
        #expect(try library.scriptForSite(url: try PageURL("http://localhost:8080/")) == nil)

        let updated = try library.saveForSite(url: page, code: "\nlocation.href\n")
        #expect(updated.id == created.id)
        #expect(updated.script.body == "\nlocation.href\n")
        #expect(try library.scripts().count == 1)
    }

    @Test func aWholeScriptReplacesTheSiteScriptText() throws {
        let folder = try TemporaryDirectory()
        let library = try ScriptLibrary(directory: folder.url)
        let page = try PageURL("https://[::1]:8443/")
        let created = try library.saveForSite(url: page, code: "1")
        #expect(created.name == "[::1]:8443")
        let text = "// ==UserScript==\n// @name Mine\n// @match *://[::1]:8443/*\n// @run-at document-end\n// ==/UserScript==\n2\n"
        let replaced = try library.saveForSite(url: page, code: text, basedOn: created)
        #expect(replaced.id == created.id)
        #expect(replaced.script.text == text)
        #expect(try library.which(url: page).map(\.script.id) == [created.id])
    }

    @Test func runAtSetsWhenTheSiteScriptRuns() throws {
        let folder = try TemporaryDirectory()
        let library = try ScriptLibrary(directory: folder.url)
        let page = try PageURL("https://example.com/")
        let saved = try library.saveForSite(url: page, code: "tidy()", runAt: .documentStart)
        #expect(try library.which(url: page).map(\.status) == [.runs(.documentStart)])
        #expect(saved.script.runAt == .documentStart)
    }

    @Test func theEditorsCopyGuardsAgainstEditsMadeMeanwhile() throws {
        let folder = try TemporaryDirectory()
        let library = try ScriptLibrary(directory: folder.url)
        let page = try PageURL("https://example.com/")
        let loaded = try library.saveForSite(url: page, code: "one()")
        try folder.write(loaded.script.text.replacingOccurrences(of: "one()", with: "theirs()"), to: loaded.file.lastPathComponent)
        #expect(throws: LibraryError.changedOnDisk(path: loaded.file.path(percentEncoded: false))) {
            try library.saveForSite(url: page, code: "mine()", basedOn: loaded)
        }
        #expect(try library.scriptForSite(url: page)?.script.body.contains("theirs()") == true)
    }

    @Test func replacingTheSiteScriptFromTheCommandLineKeepsTheOldTextInTheTrash() throws {
        let folder = try TemporaryDirectory()
        let library = try ScriptLibrary(directory: folder.url)
        let page = try PageURL("https://example.com/")
        let first = try library.saveForSite(url: page, code: "first()")
        let second = try library.saveForSite(url: page, code: "second()", basedOn: first, keepingPrevious: true)
        #expect(second.id == first.id)
        #expect(try library.scriptForSite(url: page)?.script.body.contains("second()") == true)
        let trashed = try library.trashedScripts()
        #expect(trashed.map(\.id) == [first.id])
        let kept = try String(contentsOfFile: try #require(trashed.first).path, encoding: .utf8)
        #expect(kept == first.script.text)
        // The same text again changes nothing, and keeps nothing more.
        _ = try library.saveForSite(url: page, code: "second()", basedOn: second, keepingPrevious: true)
        #expect(try library.trashedScripts().count == 1)
    }

    @Test func theSiteScriptIsFoundByItsPatternsWhenTheStateFileIsGone() throws {
        let folder = try TemporaryDirectory()
        let library = try ScriptLibrary(directory: folder.url)
        let page = try PageURL("https://example.com/")
        let saved = try library.saveForSite(url: page, code: "x()")
        try FileManager.default.removeItem(at: folder.file(".pagescript-state.json"))
        #expect(try library.scriptForSite(url: page)?.id == saved.id)
    }
}
