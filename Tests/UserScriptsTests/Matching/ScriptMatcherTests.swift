import SystemSupport
import Testing
@testable import UserScripts

struct ScriptMatcherTests {
    private func rules(_ lines: [String]) throws -> [SiteRule] {
        let text = (["// ==UserScript=="] + lines.map { "// " + $0 } + ["// ==/UserScript=="]).joined(separator: "\n")
        return UserScript(text: text).siteRules
    }

    @Test func reportsTheRuleAndPatternThatMatchedInGivenOrder() throws {
        let matcher = ScriptMatcher([
            (id: ScriptID("1"), rules: try rules(["@match https://*.example.com/*", "@match *://example.com/account/*"])),
            (id: ScriptID("2"), rules: try rules(["@include *://example.com/*"])),
            (id: ScriptID("3"), rules: try rules(["@match *://other.org/*"])),
        ])
        let matches = matcher.matches(try PageURL("https://example.com/account/settings"))
        #expect(matches.map(\.id) == ["1", "2"])
        #expect(matches[0].rule.line == 2)
        #expect(matches[1].pattern.description == "https://example.com:443/*")
    }

    @Test func scriptsWithoutPatternsNeverMatch() throws {
        let matcher = ScriptMatcher([(id: ScriptID("1"), rules: try rules(["@name No patterns"])), (id: ScriptID("2"), rules: try rules(["@exclude-match *://*/*"]))])
        #expect(matcher.count == 0)
        #expect(matcher.matches(try PageURL("https://example.com/")).isEmpty)
    }

    @Test func anInvalidRuleAddsNothingAndTheOthersStand() throws {
        let matcher = ScriptMatcher([(id: ScriptID("1"), rules: try rules(["@match *://example.com/*", "@match http://bad"]))])
        #expect(matcher.count == 1)
        #expect(matcher.matches(try PageURL("https://example.com/")).map(\.rule.line) == [2])
        #expect(matcher.matches(try PageURL("http://bad/")).isEmpty)
    }

    @Test func anExclusionThatCannotBeReadKeepsTheScriptOut() throws {
        let matcher = ScriptMatcher([(id: ScriptID("1"), rules: try rules(["@match *://example.com/*", "@exclude /(?<=a)dmin/"]))])
        #expect(matcher.count == 0)
        #expect(matcher.matches(try PageURL("https://example.com/")).isEmpty)
    }

    /// The index must give exactly what checking every pattern of every script would give.
    @Test func indexAgreesWithCheckingEveryPattern() throws {
        var generator = SeededRandomGenerator(seed: 20_240_611)
        let hosts = ["example.com", "www.example.com", "a.b.example.com", "example.org", "localhost", "127.0.0.1", "[::1]", "xn--bcher-kva.example", "com"]
        let hostRules = ["*", "*.example.com", "example.com", "*.com", "localhost", "127.0.0.1", "[::1]", "www.example.com", "*.b.example.com", "example.org"]
        let schemes = ["*", "http", "https"]
        let ports = ["", ":*", ":8080", ":443", ":80"]
        let paths = ["/*", "/", "/a*", "/a/*", "/*?x=*"]
        let includes = [
            "*://*.example.tld/*", "http://example.tld/a*", "*://*.b.example.tld/*", "https://*.example.tld:8080/*",
            #"/^https?:\/\/(www\.)?example\.com\/a/"#, #"/^http:\/\/example\.org\//"#,
        ]
        func pick(_ choices: [String]) -> String {
            choices[Int.random(in: 0..<choices.count, using: &generator)]
        }
        var scripts: [(id: ScriptID, rules: [SiteRule])] = []
        for id in 0..<400 {
            var lines: [String] = []
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                let pattern = "\(pick(schemes))://\(pick(hostRules))\(pick(ports))\(pick(paths))"
                lines.append("@match \(pattern)")
            }
            if Int.random(in: 0..<5, using: &generator) == 0 { lines.append("@match <all_urls>") }
            // `.tld` globs and proven expressions: checks the matcher shares between scripts and
            // answers once per lookup (the host's public suffix included).
            if Int.random(in: 0..<4, using: &generator) == 0 { lines.append("@include \(pick(includes))") }
            if Int.random(in: 0..<4, using: &generator) == 0 {
                lines.append("@exclude-match *://\(pick(hostRules))/a*")
            }
            scripts.append((id: ScriptID(String(id)), rules: try rules(lines)))
        }
        let matcher = ScriptMatcher(scripts)
        for host in hosts {
            for scheme in ["http", "https"] {
                for suffix in ["/", "/a", "/a/b?x=1", ":8080/", ":443/a/"] {
                    let url = try PageURL("\(scheme)://\(host)\(suffix)")
                    let expected = scripts.filter { script in
                        let included = script.rules.filter { !$0.kind.isExclusion }.flatMap(\.patterns)
                        let excluded = script.rules.filter(\.kind.isExclusion).flatMap(\.patterns)
                        return included.contains { $0.matches(url) } && !excluded.contains { $0.matches(url) }
                    }.map(\.id)
                    #expect(matcher.matches(url).map(\.id) == expected, "\(url)")
                }
            }
        }
    }

    @Test func aLargeLibraryIsIndexedByHost() throws {
        // 10,000 scripts with three patterns each, as in the issue; correctness only (no timing).
        var scripts: [(id: ScriptID, rules: [SiteRule])] = []
        for id in 0..<10_000 {
            scripts.append((id: ScriptID(String(id)), rules: try rules([
                "@match https://site\(id).example/*", "@match *://*.host\(id).test/*", "@match http://site\(id).example:8080/admin/*",
            ])))
        }
        let matcher = ScriptMatcher(scripts)
        #expect(matcher.count == 10_000)
        #expect(matcher.matches(try PageURL("https://site4711.example/page")).map(\.id) == ["4711"])
        #expect(matcher.matches(try PageURL("https://deep.sub.host42.test/")).map(\.id) == ["42"])
        #expect(matcher.matches(try PageURL("http://site9.example:8080/admin")).map(\.id) == ["9"])
        #expect(matcher.matches(try PageURL("https://unknown.example/")).isEmpty)
    }
}
