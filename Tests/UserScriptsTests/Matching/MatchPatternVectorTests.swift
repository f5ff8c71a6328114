import Testing
@testable import UserScripts

/// The public vectors of the matching rules (from Chromium's and MDN's own tests), every one.
struct MatchPatternVectorTests {
    struct Vector: Sendable, CustomTestStringConvertible {
        let pattern: String
        let url: String
        let matches: Bool
        var testDescription: String { "\(pattern) \(matches ? "matches" : "does not match") \(url)" }
    }

    static let vectors: [Vector] = [
        .init(pattern: "<all_urls>", url: "http://example.org/", matches: true),
        .init(pattern: "<all_urls>", url: "file:///foo/bar", matches: true),
        .init(pattern: "*://*/*", url: "http://example.org/", matches: true),
        .init(pattern: "*://*/*", url: "https://a.org/some/path/", matches: true),
        .init(pattern: "*://*/*", url: "ftp://ftp.example.org/", matches: false),
        .init(pattern: "*://*/*", url: "file:///a/", matches: false),
        .init(pattern: "https://*/foo*", url: "https://www.google.com/foo", matches: true),
        .init(pattern: "https://*/foo*", url: "https://www.google.com/foobar", matches: true),
        .init(pattern: "https://*/foo*", url: "http://www.google.com/foo", matches: false),
        .init(pattern: "https://*/foo*", url: "https://www.google.com/", matches: false),
        .init(pattern: "http://*.google.com/foo*bar", url: "http://google.com/foobar", matches: true),
        .init(pattern: "http://*.google.com/foo*bar", url: "http://www.google.com/foo?bar", matches: true),
        .init(pattern: "http://*.google.com/foo*bar", url: "http://monkey.images.google.com/foooobar", matches: true),
        .init(pattern: "http://*.google.com/foo*bar", url: "http://wwwgoogle.com/foobar", matches: false),
        .init(pattern: "http://*.google.com/foo*bar", url: "http://yahoo.com/foobar", matches: false),
        .init(pattern: "*://mozilla.org/", url: "http://mozilla.org/", matches: true),
        .init(pattern: "*://mozilla.org/", url: "https://mozilla.org/", matches: true),
        .init(pattern: "*://mozilla.org/", url: "http://a.mozilla.org/", matches: false),
        .init(pattern: "*://mozilla.org/", url: "http://mozilla.org/a", matches: false),
        .init(pattern: "https://*/path", url: "https://mozilla.org/path", matches: true),
        .init(pattern: "https://*/path", url: "https://mozilla.org/path/", matches: false),
        .init(pattern: "https://*/path", url: "https://mozilla.org/path?foo=1", matches: false),
        .init(pattern: "https://mozilla.org/a/b/c/", url: "https://mozilla.org/a/b/c/#section1", matches: true),
        .init(pattern: "http://127.0.0.1/*", url: "http://127.0.0.1", matches: true),
        .init(pattern: "http://127.0.0.1/*", url: "http://127.0.0.1/?bar=1", matches: true),
        .init(pattern: "http://127.0.0.1/*", url: "http://127.0.0.2/", matches: false),
        .init(pattern: "http://*.0.0.1/*", url: "http://127.0.0.1", matches: false),
        .init(pattern: "http://www.example.com:80/foo", url: "http://www.example.com/foo", matches: true),
        .init(pattern: "http://www.example.com:80/foo", url: "http://www.example.com:8080/foo", matches: false),
        .init(pattern: "http://www.example.com:*/foo", url: "http://www.example.com:8080/foo", matches: true),
        .init(pattern: "http://www.example.com:*/foo", url: "http://www.example.com/foo", matches: true),
        .init(pattern: "*://example.com/*", url: "http://example.com./", matches: true),
        .init(pattern: "*://*.gOoGle.com/*", url: "https://maps.google.com", matches: true),
        .init(pattern: "*://*.gOoGle.com/*", url: "https://example.com", matches: false),
        .init(pattern: "file:///foo*", url: "file:///foo", matches: true),
        .init(pattern: "file:///foo*", url: "file:///foobar", matches: true),
        .init(pattern: "file:///foo*", url: "file://localhost/foo", matches: true),
        .init(pattern: "file:///foo*", url: "file://foo", matches: false),
    ]

    static let invalidPatterns = [
        "http", "http:", "http://", "http:///", "http://:1234/", "http://*./", "http://*foo/bar",
        "http://foo.*.bar/baz", "http://bar", "http://foo:/", "http://foo:123456/", "http://foo:80:80/x",
        "http://[]:8888/*", "https://mozilla.org", "*://*", "http*://mozilla.org/", "https://www.example*/*",
    ]

    @Test(arguments: vectors)
    func publicVector(_ vector: Vector) throws {
        let pattern = try MatchPattern(vector.pattern)
        // A URL PageScript does not run on (ftp:) cannot be read, and then nothing matches it.
        let matches = (try? PageURL(vector.url)).map(pattern.matches) ?? false
        #expect(matches == vector.matches)
    }

    @Test(arguments: invalidPatterns)
    func invalidPatternIsRefusedWithAReason(_ text: String) {
        let error = #expect(throws: MatchPatternError.self) { try MatchPattern(text) }
        #expect(error?.reason.isEmpty == false)
        if let suggestion = error?.suggestion {
            // A suggestion is only ever offered when it is itself a valid pattern.
            #expect(throws: Never.self) { try MatchPattern(suggestion) }
        }
    }

    @Test(arguments: [
        ("www.google.*", "*://*.google.com/*"),
        ("http://bar", "http://bar/*"),
        ("https://mozilla.org", "https://mozilla.org/*"),
        ("*://*", "*://*/*"),
        ("http*://mozilla.org/", "*://mozilla.org/"),
        ("http://foo:/", "http://foo/"),
        ("example.com", "*://example.com/*"),
        ("*.example.com/*", "*://*.example.com/*"),
        ("https://user@example.com/*", "https://example.com/*"),
        ("http://0x7f.1/*", "http://127.0.0.1/*"),
        ("https://example.com/page#top", "https://example.com/page"),
        ("https://example.com\\a\\b", "https://example.com/a/b"),
        ("https://example.com/ä", "https://example.com/%C3%A4"),
    ])
    func refusalSuggestsAFix(_ written: String, _ suggestion: String) {
        let error = #expect(throws: MatchPatternError.self) { try MatchPattern(written) }
        #expect(error?.suggestion == suggestion)
    }

    @Test(arguments: ["http://*foo/bar", "http://foo.*.bar/baz", "https://www.example*/*", "http://foo:123456/", "ftp://example.com/*"])
    func refusalWithoutASafeGuessSuggestsNothing(_ written: String) {
        let error = #expect(throws: MatchPatternError.self) { try MatchPattern(written) }
        #expect(error?.suggestion == nil)
    }

    @Test(arguments: [
        ("*://*.gOoGle.com/*", "*://*.google.com/*"),
        ("HTTPS://Example.COM./a", "https://example.com/a"),
        ("http://[0:0::1]:8080/*", "http://[::1]:8080/*"),
        ("http://www.example.com:*/foo", "http://www.example.com/foo"),
        ("*://bücher.example/*", "*://xn--bcher-kva.example/*"),
        ("file://localhost/tmp/*", "file:///tmp/*"),
        ("<all_urls>", "<all_urls>"),
    ])
    func patternsHaveACanonicalForm(_ written: String, _ canonical: String) throws {
        #expect(try MatchPattern(written).description == canonical)
        #expect(try MatchPattern(written) == MatchPattern(canonical))
    }

    @Test(arguments: [
        ("/*", "/anything/at/all?x=1", true),
        ("/a*b*c", "/axxbyyc", true),
        ("/a*b*c", "/acb", false),
        ("/a*a", "/a", false),
        ("/**", "/", true),
        ("/foo*bar", "/foobar", true),
        ("/foo*bar", "/foo/bar/baz", false),
        ("/x*", "/x", true),
        ("/*/edit", "/docs/12/edit", true),
        ("/*.pdf", "/a.pdf?download=1", false),
        ("/*.pdf*", "/a.pdf?download=1", true),
    ])
    func pathStarMatchesAnyRunOfCharacters(_ path: String, _ subject: String, _ matches: Bool) throws {
        #expect(try MatchPattern("https://example.com" + path).matches(try PageURL("https://example.com" + subject)) == matches)
    }

    @Test func ruleSevenDirectoryPatternAlsoMatchesTheDirectoryItself() throws {
        let pattern = try MatchPattern("http://host/dir/*")
        #expect(pattern.matches(try PageURL("http://host/dir")))
        #expect(pattern.matches(try PageURL("http://host/dir/")))
        #expect(pattern.matches(try PageURL("http://host/dir/page")))
        #expect(!pattern.matches(try PageURL("http://host/directory")))
        #expect(!pattern.matches(try PageURL("http://host/dir?x")))
    }

    @Test func pathIsCaseSensitiveAndHostIsNot() throws {
        let pattern = try MatchPattern("https://Example.com/Account/*")
        #expect(pattern.matches(try PageURL("https://EXAMPLE.com/Account/x")))
        #expect(!pattern.matches(try PageURL("https://example.com/account/x")))
    }

    @Test func pathIsMatchedAgainstPathAndQueryWithoutFragment() throws {
        let pattern = try MatchPattern("https://example.com/search?q=*")
        #expect(pattern.matches(try PageURL("https://example.com/search?q=swift#results")))
        #expect(!pattern.matches(try PageURL("https://example.com/search#?q=swift")))
    }

    @Test func explicitPortMustEqualTheEffectivePort() throws {
        let pattern = try MatchPattern("*://example.com:443/*")
        #expect(pattern.matches(try PageURL("https://example.com/")))
        #expect(pattern.matches(try PageURL("http://example.com:443/")))
        #expect(!pattern.matches(try PageURL("http://example.com/")))
        #expect(!pattern.matches(try PageURL("https://example.com:8443/")))
    }

    @Test func schemeWildcardNeverMeansFile() throws {
        #expect(!(try MatchPattern("*://*/*").matches(try PageURL("file:///etc/passwd"))))
        #expect(try MatchPattern("file:///*").matches(try PageURL("file:///etc/passwd")))
    }

    @Test func subdomainWildcardNeverAppliesToIPAddresses() throws {
        #expect(!(try MatchPattern("*://*.1/*").matches(try PageURL("http://10.0.0.1/"))))
        #expect(!(try MatchPattern("*://*.0.0.1/*").matches(try PageURL("http://0x7f.1/"))))
        #expect(throws: MatchPatternError.self) { try MatchPattern("*://*.[::1]/*") }
    }
}
