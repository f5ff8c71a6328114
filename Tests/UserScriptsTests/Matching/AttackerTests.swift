import Testing
@testable import UserScripts

/// An attacker wants a script the user wrote for their bank to run on a page the attacker controls.
/// Every URL here is one they could send the user to; none of them is the bank, and none may match.
/// The last group shows the other side: spellings that really are the bank must still match.
struct AttackerTests {
    struct Attempt: Sendable, CustomTestStringConvertible {
        let url: String
        let why: String
        var testDescription: String { "\(why): \(url.debugDescription)" }
    }

    static let bankPatterns = [
        "*://bank.com/*", "*://*.bank.com/*", "https://bank.com/*", "https://www.bank.com:443/login*", "http://127.0.0.1/*",
    ]

    static let attempts: [Attempt] = [
        .init(url: "https://bank.com.evil.com/", why: "bank's name as a subdomain of the attacker's"),
        .init(url: "https://evilbank.com/", why: "bank's name as a suffix without a dot"),
        .init(url: "https://bank.com@evil.com/", why: "bank's name as userinfo"),
        .init(url: "https://bank.com:443@evil.com/", why: "bank's name and port as userinfo"),
        .init(url: "https://bank.com%2F@evil.com/", why: "encoded slash in userinfo"),
        .init(url: "https://evil.com/@bank.com", why: "@ after the host, in the path"),
        .init(url: "https://evil.com#@bank.com/", why: "@ in the fragment"),
        .init(url: "https://evil.com?@bank.com/", why: "@ in the query"),
        .init(url: "http://evil.com\\@bank.com/", why: "backslash ends the host (Foundation's URL says bank.com here)"),
        .init(url: "https://evil.com\\.bank.com/", why: "backslash then the bank's name"),
        .init(url: "https:\\\\evil.com\\bank.com", why: "backslashes instead of slashes"),
        .init(url: "https://evil.com/https://bank.com/", why: "the bank's URL in the path"),
        .init(url: "https://evil.com/?next=https://bank.com/", why: "the bank's URL in the query"),
        .init(url: "https://bank.com%2eevil.com/", why: "percent-encoded dot joining the names"),
        .init(url: "https://bank.com\t.evil.com/", why: "a tab is removed, joining the names"),
        .init(url: "https://bank.com\n.evil.com/", why: "a newline is removed, joining the names"),
        .init(url: "https://bank.com%00.evil.com/", why: "percent-encoded NUL"),
        .init(url: "https://bank.com%40evil.com/", why: "percent-encoded @ in the host"),
        .init(url: "https://bank.com:443.evil.com/", why: "a port that is not a number"),
        .init(url: "https://bank.com../", why: "two trailing dots"),
        .init(url: "https://b\u{0430}nk.com/", why: "Cyrillic а look-alike"),
        .init(url: "https://xn--bnk-8cd.com/", why: "the look-alike in Punycode"),
        .init(url: "https://bank.com\u{2024}evil.com/", why: "one dot leader, which NFKC but not IDNA turns into a dot"),
        .init(url: "https://evil.com\u{FF0F}bank.com/", why: "fullwidth solidus"),
        .init(url: "https://bank.com:8443/", why: "another port on the bank's host, which only patterns naming a port refuse"),
        .init(url: "http://127.0.0.1.evil.com/", why: "an IP address as a subdomain"),
        .init(url: "http://127.0.0.2/", why: "the next IP address"),
        .init(url: "http://[::ffff:127.0.0.1]/", why: "IPv4-mapped IPv6 is another host"),
        .init(url: "file://bank.com/", why: "a file URL with the bank's name as host"),
        .init(url: "ftp://bank.com/", why: "a scheme scripts do not run on"),
        .init(url: "javascript://bank.com/%0Aalert(1)", why: "javascript: URL"),
        .init(url: "data:text/html,<title>bank.com</title>", why: "data: URL"),
        .init(url: "blob:https://bank.com/uuid", why: "blob: URL created by a page"),
        .init(url: "https://bank.com\u{0000}.evil.com/", why: "a raw NUL"),
        .init(url: "https://bank .com/", why: "a space in the host"),
        .init(url: "https://[bank.com]/", why: "a host name in brackets"),
        .init(url: "https://xn--/", why: "an empty Punycode label"),
    ]

    @Test(arguments: attempts)
    func attackerPageMatchesNoBankPattern(_ attempt: Attempt) throws {
        let url = try? PageURL(attempt.url)
        for text in Self.bankPatterns {
            let pattern = try MatchPattern(text)
            if attempt.url == "https://bank.com:8443/", !text.contains(":443") {
                // An absent port means any port, and this is the bank's own host: only a pattern
                // that names port 443 must refuse it.
                continue
            }
            #expect(url.map(pattern.matches) != true, "\(text) matched \(attempt.url.debugDescription) (read as \(url?.description ?? "-"))")
        }
    }

    @Test(arguments: [
        ("https://BANK.COM/", "upper case"),
        ("https://bank.com./", "one trailing dot"),
        ("https://bank%2ecom/", "percent-encoded dot inside the bank's own name"),
        ("https://ｂａｎｋ.com/", "fullwidth letters, which browsers map to ASCII"),
        ("https://bank\u{3002}com/", "ideographic full stop, which browsers map to a dot"),
        ("https://ba\nnk.com/", "a newline, which browsers remove"),
        ("https:/bank.com/", "one slash, which browsers accept"),
        ("https://user:password@bank.com/", "credentials in front of the bank's host"),
        ("https://evil.com@bank.com/", "the attacker's name as userinfo: this is the bank"),
        ("https://bank.com:/", "an empty port"),
        ("https://bank.com:0443/", "a port with a leading zero"),
    ])
    func theBankItselfStillMatches(_ url: String, _ why: String) throws {
        #expect(try MatchPattern("https://bank.com/*").matches(try PageURL(url)), "\(why)")
    }

    @Test(arguments: ["http://0x7f.1/", "http://127.1/", "http://2130706433/", "http://0177.0.0.1/", "http://127.0.0.1./", "http://%31%32%37.0.0.1/"])
    func everySpellingOfAnIPAddressIsTheSameHost(_ url: String) throws {
        #expect(try MatchPattern("http://127.0.0.1/*").matches(try PageURL(url)))
    }

    @Test func patternForTheBankDoesNotMatchItsLookAlike() throws {
        let lookAlike = try PageURL("https://\u{0261}oogle.com/")
        #expect(lookAlike.host == .domain("xn--oogle-qmc.com"))
        #expect(!(try MatchPattern("*://google.com/*").matches(lookAlike)))
        #expect(!(try MatchPattern("*://*.google.com/*").matches(lookAlike)))
    }

    @Test(arguments: [
        ("*://bank.com/*", "https://evil.com/?://bank.com/"),
        ("*://*.bank.com/*", "https://evil.com/?.bank.com/"),
        ("https://bank.com/*", "https://bank.com.evil.com/"),
        ("http*://bank.com/*", "https://evil.com/#http://bank.com/"),
    ])
    func includeGlobsNoLongerRunAcrossComponents(_ glob: String, _ attack: String) throws {
        let patterns = try IncludeGlob.strictPatterns(for: glob)
        let url = try PageURL(attack)
        #expect(!patterns.contains { $0.matches(url) })
    }

    @Test(arguments: ["*bank.com*", "http://bank.com*", "*://*.bank.*/*", "https://*.tld/*", "*://*bank.com/*", "*://bank*.tld/*"])
    func globsThatCannotBeMadeStrictAreRefused(_ glob: String) {
        #expect(throws: MatchPatternError.self) { try IncludeGlob.strictPatterns(for: glob) }
    }

    @Test func excludeWinsOverMatch() throws {
        let script = UserScript(text: """
            // ==UserScript==
            // @match          *://*.bank.com/*
            // @exclude-match  *://login.bank.com/*
            // ==/UserScript==
            """)
        let matcher = ScriptMatcher([(id: ScriptID("bank"), rules: script.siteRules)])
        #expect(matcher.matches(try PageURL("https://www.bank.com/")).map(\.id) == ["bank"])
        #expect(matcher.matches(try PageURL("https://login.bank.com/")).isEmpty)
        #expect(matcher.matches(try PageURL("https://LOGIN.bank.com./")).isEmpty)
    }

    @Test func anExclusionGlobIsReadAsBroadlyAsTheManagersReadIt() throws {
        // Read strictly, `*bank.com/logout*` would exclude nothing; the managers exclude every
        // address that contains it, and so does PageScript.
        let script = UserScript(text: """
            // ==UserScript==
            // @match    *://*.bank.com/*
            // @exclude  *bank.com/logout*
            // @exclude  *://*.bank.com/ADMIN/*
            // ==/UserScript==
            """)
        let matcher = ScriptMatcher([(id: ScriptID("bank"), rules: script.siteRules)])
        #expect(matcher.matches(try PageURL("https://bank.com/")).map(\.id) == ["bank"])
        #expect(matcher.matches(try PageURL("https://bank.com/logout")).isEmpty)
        #expect(matcher.matches(try PageURL("https://www.bank.com/LogOut?next=/")).isEmpty)
        #expect(matcher.matches(try PageURL("https://www.bank.com/admin/users")).isEmpty)
        #expect(script.runsAutomatically)
    }

    @Test func anExclusionThatCannotBeReadKeepsTheWholeScriptFromRunning() throws {
        // Dropping only the bad rule would run the script exactly where its author excluded it.
        let script = UserScript(text: """
            // ==UserScript==
            // @match    *://*.bank.com/*
            // @exclude  /logout\\1/
            // ==/UserScript==
            """)
        #expect(ScriptMatcher([(id: ScriptID("bank"), rules: script.siteRules)]).matches(try PageURL("https://bank.com/")).isEmpty)
        #expect(script.interpretation.runMode == .onDemand(.unreadableExclusion(line: 3)))
    }
}
