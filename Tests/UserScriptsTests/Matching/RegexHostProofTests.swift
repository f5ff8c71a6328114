import Testing
@testable import UserScripts

/// `@include /regex/` is used only with a proof of the hosts it can match.
struct RegexHostProofTests {
    private func rule(_ written: String) -> SiteRule {
        SiteRule(kind: .include, text: written, line: 1)
    }

    @Test(arguments: [
        ("/^https?:\\/\\/(www\\.)?example\\.com\\//", "example.com, www.example.com"),
        ("/^https:\\/\\/([^\\/]+\\.)?example\\.com(:\\d+)?\\//", "*.example.com"),
        ("/^https?:\\/\\/[^/]+\\//", "every host"),
        ("/^https?:\\/\\/(www\\.)?example\\.(com|org)\\/path/", "example.com, example.org, www.example.com, www.example.org"),
        ("/^https:\\/\\/[a-z0-9-]+\\.example\\.com\\//", "*.example.com"),
        ("/^https:\\/\\/example\\.com$/", "example.com"),
        ("/^https:\\/\\/example\\.com(\\/|$)/", "example.com"),
        ("/^https:\\/\\/example\\.com[/?#]/", "example.com"),
        ("/^http:\\/\\/127\\.0\\.0\\.1:8080\\//", "127.0.0.1"),
        ("/^http:\\/\\/localhost(:\\d+)?\\//", "localhost"),
        ("/^https:\\/\\/example\\.com\\/|^https:\\/\\/example\\.org\\//", "example.com, example.org"),
        ("/^https?:\\/\\/(?:[\\w-]+\\.)*example\\.com\\//", "*.example.com"),
        ("/^https?:\\/\\/(.+\\.)?example\\.com\\//", "refused"),
        ("/^(https?):\\/\\/(mail|docs)\\.example\\.com\\//", "docs.example.com, mail.example.com"),
    ])
    func provenHosts(_ written: String, _ expected: String) {
        let read = rule(written)
        guard case .regularExpression(_, let hosts)? = read.patterns.first?.form else {
            #expect(expected == "refused", "\(read.error?.description ?? "")")
            return
        }
        #expect(SitePattern.describe(hosts) == expected)
    }

    @Test(arguments: [
        ("/https?:\\/\\/.*example\\.com/", "does not start with `^`", "*://*.example.com/*"),
        ("/^https?:\\/\\/.*example\\.com\\//", "unescaped `.`", "*://*.example.com/*"),
        ("/^https:\\/\\/www.example.com\\//", "unescaped `.`", "https://www.example.com/*"),
        ("/^https?:\\/\\/[^/]*example\\.com\\//", "runs straight into", "*://*.example.com/*"),
        ("/^https:\\/\\/example\\.com/", "nothing ends its host", "https://example.com/*"),
        ("/^https:\\/\\/example\\.[a-z]+\\//", "ends in a wildcard", nil),
        ("/^.*:\\/\\/example\\.com\\//", "scheme part", "*://example.com/*"),
        ("/^ftp:\\/\\/example\\.com\\//", "none of http", nil),
        ("/^(https:\\/\\/example\\.com|https:\\/\\/x\\.com)\\//", "cannot see where its scheme ends", nil),
        ("/^https:\\/\\/bücher\\.de\\//", "can never match", "https://bücher.de/*"),
        ("/^https:\\/\\/[^/]*\\.123\\//", "is not a domain name", "https://*.123/*"),
        ("/^https?:\\/\\/(?!evil)[^/]+\\//", "ends in a wildcard", nil),
    ])
    func refusalsSayWhyAndSuggestAMatchPattern(_ written: String, _ fragment: String, _ suggestion: String?) throws {
        let error = try #require(rule(written).error)
        #expect(error.reason.contains(fragment), "\(error.reason)")
        #expect(error.suggestion == suggestion)
    }

    @Test func aRegularExpressionRunsExactlyWhereItMatches() throws {
        let read = rule("/^https:\\/\\/(www\\.)?example\\.com\\/(articles|news)\\/\\d+/")
        let pattern = try #require(read.patterns.first)
        #expect(pattern.matches(try PageURL("https://example.com/articles/12")))
        #expect(pattern.matches(try PageURL("https://WWW.Example.com/NEWS/7?x")))
        #expect(!pattern.matches(try PageURL("https://example.com/articles/")))
        #expect(!pattern.matches(try PageURL("http://example.com/articles/12")))
    }

    @Test func theFragmentCountsAsItDoesForTheManagers() throws {
        let pattern = try #require(rule("/^https:\\/\\/mail\\.example\\.com\\/.*#inbox/").patterns.first)
        #expect(pattern.matches(try PageURL("https://mail.example.com/u/0/#inbox")))
        #expect(!pattern.matches(try PageURL("https://mail.example.com/u/0/#sent")))
    }
}
