import Testing
import UserScripts
@testable import GMAPI

struct ConnectPolicyTests {
    struct Vector: Sendable, CustomTestStringConvertible {
        let connects: [String]
        let url: String
        let page: String?
        let allowed: Bool
        var testDescription: String { "\(connects) \(url) \(allowed ? "allowed" : "refused")" }
    }

    static let vectors: [Vector] = [
        // A domain and its subdomains, never look-alikes.
        .init(connects: ["example.com"], url: "https://example.com/x", page: nil, allowed: true),
        .init(connects: ["example.com"], url: "https://api.example.com/x", page: nil, allowed: true),
        .init(connects: ["example.com"], url: "https://a.b.example.com:8443/x", page: nil, allowed: true),
        .init(connects: ["example.com"], url: "https://EXAMPLE.com./x", page: nil, allowed: true),
        .init(connects: ["example.com"], url: "https://example.com.evil.test/", page: nil, allowed: false),
        .init(connects: ["example.com"], url: "https://evilexample.com/", page: nil, allowed: false),
        .init(connects: ["example.com"], url: "https://example.co/", page: nil, allowed: false),
        .init(connects: ["example.com"], url: "https://evil.test/?u=example.com", page: nil, allowed: false),
        .init(connects: ["example.com"], url: "https://evil.test/example.com", page: nil, allowed: false),
        .init(connects: ["api.example.com"], url: "https://example.com/", page: nil, allowed: false),
        // Userinfo is never the host.
        .init(connects: ["allowed.com"], url: "http://allowed.com@evil.com/", page: nil, allowed: false),
        .init(connects: ["allowed.com"], url: "http://allowed.com:80@evil.com/", page: nil, allowed: false),
        .init(connects: ["allowed.com"], url: "http://user:allowed.com@evil.com/", page: nil, allowed: false),
        .init(connects: ["allowed.com"], url: "http://evil.com@allowed.com/", page: nil, allowed: true),
        .init(connects: ["allowed.com"], url: "http://evil.com\\@allowed.com/", page: nil, allowed: false),
        // IDN: the rule and the URL meet in Punycode.
        .init(connects: ["bücher.example"], url: "https://xn--bcher-kva.example/", page: nil, allowed: true),
        .init(connects: ["xn--bcher-kva.example"], url: "https://www.bücher.example/", page: nil, allowed: true),
        .init(connects: ["bucher.example"], url: "https://bücher.example/", page: nil, allowed: false),
        // localhost: the name and every spelling of loopback, by value.
        .init(connects: ["localhost"], url: "http://localhost:8080/", page: nil, allowed: true),
        .init(connects: ["localhost"], url: "http://127.0.0.1/", page: nil, allowed: true),
        .init(connects: ["localhost"], url: "http://127.1/", page: nil, allowed: true),
        .init(connects: ["localhost"], url: "http://0x7f.1/", page: nil, allowed: true),
        .init(connects: ["localhost"], url: "http://2130706433/", page: nil, allowed: true),
        .init(connects: ["localhost"], url: "http://0177.0.0.1/", page: nil, allowed: true),
        .init(connects: ["localhost"], url: "http://127.0.0.2/", page: nil, allowed: true),
        .init(connects: ["localhost"], url: "http://[::1]/", page: nil, allowed: true),
        .init(connects: ["localhost"], url: "http://[::ffff:127.0.0.1]/", page: nil, allowed: true),
        .init(connects: ["localhost"], url: "http://[0:0:0:0:0:0:0:1]/", page: nil, allowed: true),
        .init(connects: ["localhost"], url: "http://localhost.evil.test/", page: nil, allowed: false),
        .init(connects: ["localhost"], url: "http://128.0.0.1/", page: nil, allowed: false),
        .init(connects: ["localhost"], url: "http://[::2]/", page: nil, allowed: false),
        .init(connects: ["localhost"], url: "http://[::ffff:128.0.0.1]/", page: nil, allowed: false),
        // A domain rule never lets a script reach the machine through an IP spelling.
        .init(connects: ["example.com"], url: "http://127.1/", page: nil, allowed: false),
        .init(connects: ["example.com"], url: "http://0x7f.1/", page: nil, allowed: false),
        .init(connects: ["example.com"], url: "http://2130706433/", page: nil, allowed: false),
        .init(connects: ["example.com"], url: "http://[::1]/", page: nil, allowed: false),
        .init(connects: ["example.com"], url: "http://[::ffff:127.0.0.1]/", page: nil, allowed: false),
        .init(connects: ["example.com"], url: "http://localhost/", page: nil, allowed: false),
        // IP rules compare by value, and only with IPs.
        .init(connects: ["127.0.0.1"], url: "http://127.1:9/", page: nil, allowed: true),
        .init(connects: ["127.0.0.1"], url: "http://2130706433/", page: nil, allowed: true),
        .init(connects: ["127.0.0.1"], url: "http://127.0.0.2/", page: nil, allowed: false),
        .init(connects: ["127.0.0.1"], url: "http://localhost/", page: nil, allowed: false),
        .init(connects: ["::1"], url: "http://[::1]/", page: nil, allowed: true),
        .init(connects: ["[::1]"], url: "http://[0::1]/", page: nil, allowed: true),
        .init(connects: ["192.0.2.7"], url: "http://192.0.2.7.evil.test/", page: nil, allowed: false),
        // self: the page's own host, exactly.
        .init(connects: ["self"], url: "https://shop.example/api", page: "https://shop.example/cart", allowed: true),
        .init(connects: ["self"], url: "http://shop.example:8080/api", page: "https://shop.example/cart", allowed: true),
        .init(connects: ["self"], url: "https://api.shop.example/", page: "https://shop.example/cart", allowed: false),
        .init(connects: ["self"], url: "https://shop.example/", page: nil, allowed: false),
        .init(connects: ["self"], url: "https://shop.example/", page: "file:///home/me/page.html", allowed: false),
        // *: anything; nothing: nothing.
        .init(connects: ["*"], url: "https://anything.test/", page: nil, allowed: true),
        .init(connects: [], url: "https://example.com/", page: nil, allowed: false),
        // The page's own host needs no line (Tampermonkey; a Greasemonkey 4 script has none).
        .init(connects: [], url: "https://shop.example/api", page: "https://shop.example/cart", allowed: true),
        .init(connects: ["example.com"], url: "http://shop.example:8080/api", page: "https://shop.example/cart", allowed: true),
        .init(connects: [], url: "https://api.shop.example/", page: "https://shop.example/cart", allowed: false),
        .init(connects: [], url: "https://shop.example.evil.test/", page: "https://shop.example/cart", allowed: false),
        // Forms scripts write in the wild.
        .init(connects: ["*.example.com"], url: "https://api.example.com/", page: nil, allowed: true),
        .init(connects: ["https://example.com/path"], url: "https://api.example.com/", page: nil, allowed: true),
        .init(connects: ["  Example.COM  "], url: "https://example.com/", page: nil, allowed: true),
    ]

    @Test(arguments: vectors)
    func aRequestIsAllowedOnlyWhereAConnectLineSays(vector: Vector) throws {
        let policy = ConnectPolicy(values: vector.connects)
        let url = try PageURL(vector.url)
        let page = try vector.page.map { try PageURL($0) }
        #expect(policy.allows(url, pageURL: page) == vector.allowed)
        if vector.allowed {
            try policy.check(url, pageURL: page)
        } else {
            #expect(throws: GMRequestFailure.self) { try policy.check(url, pageURL: page) }
        }
    }

    @Test func aRefusalNamesTheLineToAdd() throws {
        let policy = ConnectPolicy(values: ["example.com"])
        let page = try PageURL("https://shop.example/")
        let foreign = #expect(throws: GMRequestFailure.self) { try policy.check(try PageURL("https://API.other.test/x"), pageURL: page) }
        #expect(foreign == .forbiddenHost(url: "https://api.other.test/x", host: "api.other.test", addLine: "// @connect api.other.test"))
        #expect(foreign?.description.contains("Add `// @connect api.other.test`") == true)
        #expect(foreign?.callback == .onerror)
        // The page's own host is allowed without a line.
        try policy.check(try PageURL("https://shop.example/api"), pageURL: page)
        let loopback = #expect(throws: GMRequestFailure.self) { try policy.check(try PageURL("http://[::1]:8/"), pageURL: page) }
        #expect(loopback?.description.contains("// @connect ::1") == true)
    }

    @Test(arguments: ["", "exa mple.com", "evil.com/path", "a@b.com", "a..b", "https://", "ex#ample.com"])
    func aValueThatNamesNoHostIsIgnoredWithTheReason(value: String) {
        let policy = ConnectPolicy(values: [value, "example.com"])
        #expect(policy.rules == [.domain("example.com")])
        #expect(policy.ignored.count == 1)
        #expect(policy.ignored.first?.description.hasPrefix("@connect ") == true)
    }

    @Test func thePolicyComesFromTheScriptsConnectLines() throws {
        let script = UserScript(text: """
            // ==UserScript==
            // @name    Fetcher
            // @connect api.example.com
            // @connect localhost
            // @connect api.example.com
            // ==/UserScript==
            """)
        #expect(ConnectPolicy(script: script).rules == [.domain("api.example.com"), .localhost])
    }
}
