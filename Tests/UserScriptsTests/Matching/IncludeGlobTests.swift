import Testing
@testable import UserScripts

/// Rule 10: `@include` and `@exclude` globs become strict match patterns only where that is exact.
struct IncludeGlobTests {
    @Test(arguments: [
        ("*", ["<all_urls>"]),
        ("http://example.com/*", ["http://example.com:80/*"]),
        ("https://example.com/account/*", ["https://example.com:443/account/*"]),
        ("*://example.com/*", ["http://example.com:80/*", "https://example.com:443/*"]),
        ("http*://example.com/*", ["http://example.com:80/*", "https://example.com:443/*"]),
        ("*://*.example.com/*", ["http://*.example.com:80/*", "https://*.example.com:443/*"]),
        ("https://example.com:8443/*", ["https://example.com:8443/*"]),
        ("*://localhost:3000/*", ["*://localhost:3000/*"]),
        ("*://*/*", ["*://*/*", "file:///*"]),
        ("https://*/*", ["https://*/*"]),
        ("http://*/foo*bar", ["http://*/foo*bar"]),
        // A `*` that is all there is after `://` claims every page of the scheme, openly.
        ("http://*", ["http://*/*"]),
        ("https://*", ["https://*/*"]),
        ("http*://*", ["*://*/*"]),
        ("*://*", ["*://*/*", "file:///*"]),
        ("file:///home/*", ["file:///home/*"]),
        ("*://[::1]:8080/*", ["*://[::1]:8080/*"]),
        ("*://*.wikipedia.tld/*", ["http://*.wikipedia.<public suffix>:80/*", "https://*.wikipedia.<public suffix>:443/*"]),
        ("https://www.Example.TLD/shop/*", ["https://www.example.<public suffix>:443/shop/*"]),
        ("https://example.tld:8443/*", ["https://example.<public suffix>:8443/*"]),
    ])
    func exactConversions(_ glob: String, _ expected: [String]) throws {
        #expect(try IncludeGlob.strictPatterns(for: glob).map(\.description) == expected)
    }

    @Test(arguments: [
        ("*google.com*", "without `://`"),
        ("http://example.com*", "longer host names"),
        ("http://*.tld/*", "`.tld` must follow a domain name"),
        ("http://ww*.google.tld/*", "`.tld` must follow a domain name"),
        ("*://www.google.*/*", "top-level domain"),
        ("*://*google.com/*", "host wildcard"),
        ("http://example.com", "no path"),
        ("ftp://example.com/*", "none of the schemes"),
        ("http://example.com:*/*", "wildcard port"),
        ("http://user@example.com/*", "user name"),
        ("http://example.com/page#top", "fragment"),
        ("", "empty"),
    ])
    func refusalsSayWhy(_ glob: String, _ reasonFragment: String) {
        let error = #expect(throws: MatchPatternError.self) { try IncludeGlob.strictPatterns(for: glob) }
        #expect(error?.reason.contains(reasonFragment) == true, "\(error?.reason ?? "no error")")
    }

    @Test func aRefusedGlobSuggestsAStrictPatternWhereOneIsObvious() {
        let error = #expect(throws: MatchPatternError.self) { try IncludeGlob.strictPatterns(for: "http://example.com*") }
        #expect(error?.suggestion == "http://example.com/*")
    }

    @Test func portlessGlobKeepsToDefaultPortsAsTheGlobDid() throws {
        let patterns = try IncludeGlob.strictPatterns(for: "*://localhost/*")
        let defaultPort = try PageURL("http://localhost/")
        let devServer = try PageURL("http://localhost:3000/")
        #expect(patterns.contains { $0.matches(defaultPort) })
        #expect(!patterns.contains { $0.matches(devServer) })
    }
}
