import Testing
import UserScripts
@testable import GMAPI

/// Relative URLs (a `Location` header, a relative `@resource`, a script's relative request)
/// resolve as browsers resolve them, and the host is always PageURL's reading.
struct URLReferenceTests {
    @Test(arguments: [
        ("https://a.test/dir/page?q=1", "other", "https://a.test/dir/other"),
        ("https://a.test/dir/page", "../up/x", "https://a.test/up/x"),
        ("https://a.test/dir/page", "/root", "https://a.test/root"),
        ("https://a.test:8443/dir/page", "/root", "https://a.test:8443/root"),
        ("https://a.test/dir/page", "?n=2", "https://a.test/dir/page?n=2"),
        ("https://a.test/dir/page?q=1", "#frag", "https://a.test/dir/page?q=1"),
        ("https://a.test/dir/page", "", "https://a.test/dir/page"),
        ("https://a.test/dir/page", "//b.test/p", "https://b.test/p"),
        ("https://a.test/dir/page", "\\\\b.test/p", "https://b.test/p"),
        ("https://a.test/dir/page", "/\\b.test/p", "https://b.test/p"),
        ("https://a.test/dir/page", "https://c.test/x", "https://c.test/x"),
        ("https://a.test/dir/page", "HTTP://C.TEST:80/x", "http://c.test/x"),
        ("https://a.test/dir/page", "  /t\tab\n  ", "https://a.test/tab"),
        ("https://a.test/dir/page", "https:other", "https://a.test/dir/other"),
        ("https://a.test/dir/page", "//allowed.test@evil.test/", "https://evil.test/"),
        ("http://[::1]:8080/a/b", "c", "http://[::1]:8080/a/c"),
    ])
    func referencesResolveAsInBrowsers(base: String, reference: String, expected: String) throws {
        #expect(try URLReference.resolve(reference, against: try PageURL(base)).description == expected)
    }

    @Test(arguments: ["mailto:me@example.com", "javascript:alert(1)", "data:text/plain,x", "//", "https://exa mple.com/"])
    func referencesThatNameNoWebPageAreRefused(reference: String) throws {
        #expect(throws: URLParseError.self) { try URLReference.resolve(reference, against: try PageURL("https://a.test/")) }
    }
}
