import GMAPI
import SystemSupport
import Testing
import UserScripts

/// What a `GM_cookie` call reaches and lists: Tampermonkey's details read, the script's sites
/// and `@connect` hosts as the limits, and RFC 6265's domain and path rules.
struct GMCookieCallTests {
    static let script = UserScript(text: """
        // ==UserScript==
        // @name Jar
        // @match https://shop.example.com/*
        // @exclude https://shop.example.com/private/*
        // @connect api.example.net
        // ==/UserScript==
        """)

    static func call(_ action: String, _ details: JSONValue) throws -> GMCookieCall {
        try GMCookieCall(json: ["action": .string(action), "details": details])
    }

    @Test func detailsAreReadAsTampermonkeyWritesThem() throws {
        let call = try Self.call("set", ["url": "https://shop.example.com/cart/view", "name": "n", "value": "v", "domain": ".Example.com",
                                         "secure": true, "httpOnly": true, "expirationDate": 1_900_000_000.5, "sameSite": "lax"])
        #expect(call.action == .set && call.domain == "example.com" && call.expirationDate == 1_900_000_000.5)
        let cookie = call.cookieToSet
        #expect(!cookie.hostOnly && cookie.domain == "example.com" && cookie.path == "/cart" && cookie.secure && cookie.httpOnly)
        #expect(!cookie.session && cookie.sameSite == "lax")
        #expect(try Self.call("set", ["url": "https://shop.example.com/", "name": "n"]).cookieToSet.path == "/")
        #expect(try Self.call("set", ["url": "https://shop.example.com/", "name": "n"]).cookieToSet.hostOnly)
    }

    @Test(arguments: [
        ("eat", ["url": "https://shop.example.com/"] as JSONValue, "the action must be list, set or delete"),
        ("list", [:] as JSONValue, "it names no url"),
        ("set", ["url": "https://shop.example.com/"] as JSONValue, "GM_cookie.set needs a name"),
        ("delete", ["url": "https://shop.example.com/"] as JSONValue, "GM_cookie.delete needs a name"),
        ("list", ["url": "file:///etc/passwd"] as JSONValue, "a file: address has no cookies"),
        ("set", ["url": "https://shop.example.com/", "name": "n", "domain": "other.com"] as JSONValue,
         "the domain other.com is not shop.example.com or a domain above it"),
    ])
    func unusableDetailsAreRefusedWithTheReason(action: String, details: JSONValue, reason: String) {
        #expect(throws: GMCookieError.malformed(reason)) { try Self.call(action, details) }
    }

    @Test func aScriptReachesItsSitesFullyAndItsConnectHostsWithoutHttpOnly() throws {
        let policy = ConnectPolicy(script: Self.script)
        let page = try PageURL("https://shop.example.com/cart")
        #expect(try Self.call("list", ["url": "https://shop.example.com/x"]).access(for: Self.script, policy: policy, pageURL: page) == .all)
        // The document the script runs in, even where its rules do not name it (`run URL -f`).
        let elsewhere = try PageURL("http://127.0.0.1:8080/")
        #expect(try Self.call("list", ["url": "http://127.0.0.1:8080/a"]).access(for: Self.script, policy: policy, pageURL: elsewhere) == .all)
        #expect(try Self.call("list", ["url": "https://api.example.net/"]).access(for: Self.script, policy: policy, pageURL: page) == .scriptVisible)
        #expect(throws: GMCookieError.self) {
            try Self.call("list", ["url": "https://bank.example.org/"]).access(for: Self.script, policy: policy, pageURL: page)
        }
        // An excluded address is not the script's.
        #expect(throws: GMCookieError.self) {
            try Self.call("list", ["url": "https://shop.example.com/private/1"]).access(for: Self.script, policy: policy, pageURL: try PageURL("https://other.example.com/"))
        }
    }

    @Test func aListGivesOnlyTheCookiesTheAddressIsSentAndTheFiltersKeep() throws {
        let cookies = [
            GMCookie(name: "a", value: "1", domain: "shop.example.com", hostOnly: true, path: "/"),
            GMCookie(name: "b", value: "2", domain: "example.com", hostOnly: false, path: "/"),
            GMCookie(name: "c", value: "3", domain: "example.com", hostOnly: true, path: "/"),
            GMCookie(name: "d", value: "4", domain: "shop.example.com", hostOnly: true, path: "/cart"),
            GMCookie(name: "e", value: "5", domain: "shop.example.com", hostOnly: true, path: "/cartoon"),
            GMCookie(name: "f", value: "6", domain: "shop.example.com", hostOnly: true, path: "/", secure: true),
            GMCookie(name: "g", value: "7", domain: "shop.example.com", hostOnly: true, path: "/", httpOnly: true),
        ]
        let names = { (call: GMCookieCall, access: GMCookieCall.Access) in call.selecting(cookies, access: access).map(\.name) }
        #expect(names(try Self.call("list", ["url": "http://shop.example.com/cart/1"]), .all) == ["a", "b", "d", "g"])
        #expect(names(try Self.call("list", ["url": "https://shop.example.com/cart"]), .all) == ["a", "b", "d", "f", "g"])
        #expect(names(try Self.call("list", ["url": "https://shop.example.com/cart"]), .scriptVisible) == ["a", "b", "d", "f"])
        #expect(names(try Self.call("list", ["url": "https://shop.example.com/", "name": "b"]), .all) == ["b"])
        #expect(names(try Self.call("list", ["url": "https://shop.example.com/cart", "path": "/cart"]), .all) == ["d"])
        #expect(names(try Self.call("list", ["url": "https://shop.example.com/", "domain": "shop.example.com"]), .all) == ["a", "f", "g"])
    }

    @Test func domainsAndPathsMatchAsRFC6265Says() {
        #expect(GMCookie.domain("www.example.com", isWithin: "example.com"))
        #expect(!GMCookie.domain("badexample.com", isWithin: "example.com"))
        #expect(!GMCookie.domain("1.2.3.4", isWithin: "3.4"))
        #expect(GMCookie.path("/cart/1", isWithin: "/cart") && GMCookie.path("/cart", isWithin: "/cart") && GMCookie.path("/a/b", isWithin: "/"))
        #expect(!GMCookie.path("/cartoon", isWithin: "/cart"))
        #expect(GMCookie.sameSiteName("None") == "no_restriction" && GMCookie.sameSiteAttribute("no_restriction") == "None")
    }
}
