import Testing
@testable import UserScripts

/// PageScript's own URL parser against what browsers do (the expected values were checked against
/// the WHATWG URL parser of Node.js), and the cases where PageScript refuses on purpose.
struct PageURLTests {
    @Test(arguments: [
        ("https://example.com@evil.com/", "https://evil.com/"),
        ("http://evil.com\\@bank.com/", "http://evil.com/@bank.com/"),
        ("http://ba\tnk.com/", "http://bank.com/"),
        ("http://%62ank.com/", "http://bank.com/"),
        ("http://0x7f.1/", "http://127.0.0.1/"),
        ("http://[0:0::1]:80/x", "http://[::1]/x"),
        ("http://[1:0:0:2:0:0:0:3]/", "http://[1:0:0:2::3]/"),
        ("http://[::ffff:1.2.3.4]/", "http://[::ffff:102:304]/"),
        ("http://[ABCD::]/", "http://[abcd::]/"),
        ("http://4294967295/", "http://255.255.255.255/"),
        ("HTTPS://BANK.COM:443/", "https://bank.com/"),
        ("https://bank.com:0443/", "https://bank.com/"),
        ("https://example.com:8443", "https://example.com:8443/"),
        ("http:///example.com/", "http://example.com/"),
        ("https://bank.com/login/../evil", "https://bank.com/evil"),
        ("https://bank.com/a/./b/%2e/c/%2E%2e/d", "https://bank.com/a/b/d"),
        ("https://bank.com/a/..", "https://bank.com/"),
        ("https://bank.com/a b?c d#e f", "https://bank.com/a%20b?c%20d"),
        ("https://bank.com/ä?ö", "https://bank.com/%C3%A4?%C3%B6"),
        ("https://bank.com/'\"<>`{}|^?'\"<>`{}|^", "https://bank.com/'%22%3C%3E%60%7B%7D|^?%27%22%3C%3E`{}|^"),
        ("https://a.com?x", "https://a.com/?x"),
        ("https://a.com/?", "https://a.com/?"),
        ("  https://a.com/  ", "https://a.com/"),
        ("http://user:pass@a.com:8080/p?q#f", "http://a.com:8080/p?q"),
        ("file:///foo", "file:///foo"),
        ("file://localhost/foo", "file:///foo"),
        ("file://foo", "file://foo/"),
        ("file:foo", "file:///foo"),
        ("file:///C:/x/../..", "file:///C:/"),
        ("file://C:/x", "file:///C:/x"),
        ("http://Bücher.example/", "http://xn--bcher-kva.example/"),
        ("http://faß.de/", "http://xn--fa-hia.de/"),
        ("http://\u{0130}.com/", "http://xn--i-9bb.com/"),
        ("http://ﬁ.com/", "http://fi.com/"),
        ("http://①.com/", "http://1.com/"),
        ("http://a\u{00AD}b.com/", "http://ab.com/"),
        ("http://a_b.com/", "http://a_b.com/"),
        ("http://日本.jp/", "http://xn--wgv71a.jp/"),
        ("http://пример.рф/", "http://xn--e1afmkfd.xn--p1ai/"),
        ("http://xn--e1afmkfd.xn--p1ai/", "http://xn--e1afmkfd.xn--p1ai/"),
        ("http://XN--EXMPLE-CUA.com/", "http://xn--exmple-cua.com/"),
        ("http://مثال.إختبار/", "http://xn--mgbh0fb.xn--kgbechtv/"),
    ])
    func readsLikeABrowser(_ input: String, _ canonical: String) throws {
        #expect(try PageURL(input).description == canonical)
    }

    @Test(arguments: [
        "javascript:alert(1)", "data:text/html,x", "about:blank", "ftp://x/", "chrome://settings", "example.com", "//example.com/",
        "http://", "http:", "https://@/", "http://exa mple.com/", "http://[fe80::1%25eth0]/", "http://1.2.3.4.5/",
        "http://foo.09/", "http://256.0.0.1/", "http://4294967296/", "https://example.com:65536/", "http://[1::2::3]/",
        "http://%zz.com/", "http://a%2Fb.com/", "http://xn--/", "http://xn--a.com/", "http://\u{0000}a.com/", "http://a..b/",
        "https://bank.com../", "http://a\u{2024}com/", "http://\u{2100}.com/", "http://\u{3164}.com/", "http://a\u{05D0}.com/",
        "http://\u{1E9E}.de/", "http://\u{03F2}.com/", "http://i\u{2764}.ws/", "http://\u{200D}.com/",
    ])
    func refusesWhatItCannotReadWithCertainty(_ input: String) {
        #expect(throws: URLParseError.self) { try PageURL(input) }
    }

    @Test func schemeErrorsSayWhichScheme() {
        let error = #expect(throws: URLParseError.self) { try PageURL("ftp://example.com/") }
        #expect(error == .unsupportedScheme("ftp"))
    }

    @Test func defaultPortIsNotKeptAndEffectivePortIsKnown() throws {
        let url = try PageURL("https://example.com:443/")
        #expect(url.port == nil)
        #expect(url.effectivePort == 443)
        #expect(try PageURL("http://example.com:8080/").effectivePort == 8080)
        #expect(try PageURL("file:///x").effectivePort == nil)
    }
}
