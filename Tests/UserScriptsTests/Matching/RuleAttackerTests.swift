import Testing
@testable import UserScripts

/// The attacks of `AttackerTests`, against the rules PageScript now accepts from real scripts:
/// regular expressions and `.tld` globs must never reach a look-alike host, a user-name trick,
/// a homograph, or a page that only mentions the site in its path, query or fragment.
struct RuleAttackerTests {
    static let attacks = [
        "https://example.com.evil.net/",
        "https://evilexample.com/",
        "https://example.co/",
        "https://example.com@evil.net/",
        "https://www.example.com:pw@evil.net/",
        "https://evil.net\\@example.com/",
        "https://evil.net/https://example.com/",
        "https://evil.net/?u=https://www.example.com/",
        "https://evil.net/#https://example.com/",
        "https://xn--xample-2of.com/",
        "https://еxample.com/",
        "https://example.com.evil.net:443/",
        "http://evil.net/?.example.com/",
        "https://example.evil/",
        "https://1.2.3.4/example.com/",
    ]

    static let acceptedExpressions = [
        "/^https?:\\/\\/(www\\.)?example\\.com\\//",
        "/^https?:\\/\\/([^\\/]+\\.)?example\\.com(:\\d+)?\\//",
        "/^https:\\/\\/[a-z0-9-]+\\.example\\.com(\\/|$)/",
        "/^https?:\\/\\/(?:[\\w-]+\\.)*example\\.com[\\/?#:]/",
        "/^https?:\\/\\/example\\.com$/",
    ]

    @Test(arguments: acceptedExpressions)
    func anAcceptedExpressionNeverReachesAnotherSite(_ expression: String) throws {
        let script = UserScript(text: "// ==UserScript==\n// @include \(expression)\n// ==/UserScript==\n")
        #expect(script.siteRules.allSatisfy { $0.error == nil }, "\(script.siteRules.compactMap(\.error))")
        let matcher = ScriptMatcher([(id: ScriptID("site"), rules: script.siteRules)])
        for attack in Self.attacks {
            #expect(matcher.matches(try PageURL(attack)).isEmpty, "\(expression) matched \(attack)")
        }
        #expect(!matcher.matches(try PageURL("https://www.example.com/")).isEmpty || expression.contains("$/"))
    }

    @Test(arguments: [
        "/https?:\\/\\/(www\\.)?example\\.com\\//",
        "/^https?:\\/\\/.*example\\.com\\//",
        "/^https?:\\/\\/.*\\.example\\.com\\//",
        "/^https?:\\/\\/www.example.com\\//",
        "/^https?:\\/\\/[^/]*example\\.com\\//",
        "/^https?:\\/\\/(www\\.)?example\\.com/",
        "/^https?:\\/\\/[^/]*\\.example\\.[a-z]+\\//",
        "/example\\.com/",
        "/^.*example\\.com/",
    ])
    func anExpressionThatCouldReachAnotherSiteIsSetAside(_ expression: String) {
        let script = UserScript(text: "// ==UserScript==\n// @include \(expression)\n// ==/UserScript==\n")
        #expect(script.siteRules.first?.error != nil)
        #expect(script.interpretation.runMode == .onDemand(.everySiteRuleSetAside))
    }

    @Test func tldGlobsStayOnTheNamedSite() throws {
        let script = UserScript(text: "// ==UserScript==\n// @include *://*.wikipedia.tld/*\n// @include https://www.amazon.tld/*\n// ==/UserScript==\n")
        let matcher = ScriptMatcher([(id: ScriptID("wiki"), rules: script.siteRules)])
        for page in ["https://en.wikipedia.org/wiki/A", "https://en.wikipedia.co.uk/", "http://wikipedia.de/", "https://de.m.wikipedia.org/",
                     "https://WIKIPEDIA.ORG./", "https://www.amazon.co.jp/dp/1", "https://www.amazon.com/"] {
            #expect(!matcher.matches(try PageURL(page)).isEmpty, "\(page) should match")
        }
        for attack in ["https://wikipedia.org.evil.com/", "https://en.wikipediaxorg.com/", "https://en.wikipedia.blogspot.com/",
                       "https://wikipedia.github.io/", "https://wikipedia.com@evil.com/", "https://evil.com/?wikipedia.org",
                       "https://evil.com/#en.wikipedia.org", "https://xn--wkipedia-c2a.org/", "https://en.wikipedia.kawasaki.jp/",
                       "https://wikipedia.evil/", "https://1.2.3.4/", "https://amazon.com/", "https://shop.www.amazon.com/",
                       "https://www.amazon.com.evil.net/", "https://wikipedia.org:8080/", "https://evilwikipedia.org/"] {
            #expect(matcher.matches(try PageURL(attack)).isEmpty, "\(attack) must not match")
        }
    }

    @Test func exclusionsInEveryFormNarrowAndNeverWiden() throws {
        let script = UserScript(text: """
            // ==UserScript==
            // @match         *://*.example.com/*
            // @exclude       *://*.example.tld/admin*
            // @exclude       /\\/private\\//
            // @exclude-match *://*.example.*/checkout/*
            // @exclude-match https://shop.example.com/Cart/*
            // ==/UserScript==
            """)
        #expect(script.interpretation.runMode == .automatic(.documentIdle))
        let matcher = ScriptMatcher([(id: ScriptID("shop"), rules: script.siteRules)])
        #expect(!matcher.matches(try PageURL("https://www.example.com/")).isEmpty)
        for excluded in ["https://www.example.com/admin/users", "https://www.example.com/a/PRIVATE/b", "https://www.example.com/checkout/pay",
                         "https://shop.example.com/cart/1", "https://www.example.com/#/private/x"] {
            #expect(matcher.matches(try PageURL(excluded)).isEmpty, "\(excluded) should be excluded")
        }
    }
}
