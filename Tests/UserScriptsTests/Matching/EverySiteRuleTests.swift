import Foundation
import Testing
@testable import UserScripts

/// Rules that openly claim every site run everywhere, as the managers run them; a host wildcard
/// that runs into a domain is read as the site its author plainly meant, and says so.
struct EverySiteRuleTests {
    static func script(_ rules: [String]) -> UserScript {
        UserScript(text: "// ==UserScript==\n// @name Everywhere\n" + rules.map { "// \($0)\n" }.joined() + "// ==/UserScript==\n")
    }

    static func runs(_ rules: [String], on url: String) throws -> Bool {
        let matcher = ScriptMatcher([(id: ScriptID("s"), rules: script(rules).siteRules)])
        return !matcher.matches(try PageURL(url)).isEmpty
    }

    @Test(arguments: [
        ("@include http://*", ["http://example.com/", "http://127.0.0.1:8080/a?b"], ["https://example.com/", "file:///tmp/a.html"], "every http page"),
        ("@include https://*", ["https://example.com/x"], ["http://example.com/"], "every https page"),
        ("@include http*://*", ["http://a.example/", "https://b.example/c"], ["file:///tmp/a.html"], "every http and https page"),
        ("@include *://*", ["http://a.example/", "https://b.example/", "file:///tmp/a.html"], [], "every http, https and file page"),
        ("@include *", ["http://a.example/", "file:///tmp/a.html"], [], "every http, https and file page"),
        ("@match *://*/*", ["http://a.example/", "https://b.example/"], ["file:///tmp/a.html"], "every http and https page"),
        ("@match <all_urls>", ["https://b.example/", "file:///tmp/a.html"], [], "every http, https and file page"),
    ])
    func aRuleThatClaimsEverySiteRunsEverywhereAndSaysSo(_ rule: String, _ pages: [String], _ others: [String], _ words: String) throws {
        for page in pages { #expect(try Self.runs([rule], on: page), "\(rule) on \(page)") }
        for page in others { #expect(try !Self.runs([rule], on: page), "\(rule) on \(page)") }
        let read = try #require(Self.script([rule]).interpretation.rules.first)
        #expect(read.error == nil)
        #expect(read.everyPage == words)
        #expect(Self.script([rule]).runsAutomatically)
        #expect(Self.script([rule]).interpretation.report.contains("  line 3: \(rule) (as written: \(words))"))
    }

    @Test(arguments: ["/^https?:\\/\\//", "/^https?:\\/\\/.*$/", "/^http:\\/\\/.*/"])
    func aRegularExpressionThatStopsAtTheSchemeClaimsEveryHost(_ expression: String) throws {
        let rule = "@include \(expression)"
        #expect(try Self.runs([rule], on: "http://example.com/any/path?q"))
        #expect(try Self.runs([rule], on: "http://127.0.0.1:8000/"))
        #expect(try !Self.runs([rule], on: "file:///tmp/a.html"))
        let read = try #require(Self.script([rule]).interpretation.rules.first)
        #expect(read.error == nil)
    }

    @Test func aClaimOnEverySiteStillLosesToAnExclusion() throws {
        let rules = ["@include http://*", "@exclude *://*.bank.example/*"]
        #expect(try Self.runs(rules, on: "http://news.example/"))
        #expect(try !Self.runs(rules, on: "http://www.bank.example/"))
    }

    @Test(arguments: ["@match https://*musicbrainz.org/*", "@include https://*musicbrainz.org/*", "@include *://*musicbrainz.org/*"])
    func aWildcardRunningIntoADomainIsReadAsThatDomainAndItsSubdomains(_ rule: String) throws {
        #expect(try Self.runs([rule], on: "https://musicbrainz.org/artist/1"))
        #expect(try Self.runs([rule], on: "https://beta.musicbrainz.org/"))
        for attack in ["https://evilmusicbrainz.org/", "https://musicbrainz.org.evil.example/", "https://evil.example/?musicbrainz.org/"] {
            #expect(try !Self.runs([rule], on: attack), "\(rule) on \(attack)")
        }
        let read = try #require(Self.script([rule]).interpretation.rules.first)
        guard case let .narrowed(how) = read.reading else {
            Issue.record("not narrowed: \(read.reading)")
            return
        }
        #expect(how.contains("*.musicbrainz.org"))
        #expect(how.contains("`evilmusicbrainz.org`"))
    }

    @Test(arguments: ["@match https://*com/*", "@match https://*.com*/*", "@match https://*127.0.0.1/*", "@include *://*bank.*/*"])
    func aWildcardWithNoPlainSiteAfterItIsStillSetAside(_ rule: String) throws {
        let read = try #require(Self.script([rule]).interpretation.rules.first)
        #expect(read.error != nil, "\(read.reading)")
    }

    @Test func aWildcardRunningIntoAPublicSuffixIsStillSetAside() throws {
        try #require(FileManager.default.fileExists(atPath: PublicSuffixList.systemPath), "the publicsuffix package is installed")
        let read = try #require(Self.script(["@match https://*co.uk/*"]).interpretation.rules.first)
        #expect(read.error != nil, "\(read.reading)")
    }
}
