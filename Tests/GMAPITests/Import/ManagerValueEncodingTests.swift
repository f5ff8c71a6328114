import SystemSupport
import Testing
import UserScripts
@testable import GMAPI

/// The managers' value strings (Violentmonkey's `dumpScriptValue`, the same in Tampermonkey's
/// `.storage.json`), and Violentmonkey's URI for a script.
struct ManagerValueEncodingTests {
    static let readable: [(JSONValue, JSONValue)] = [
        ("sdark", "dark"),
        ("s", ""),
        ("sn42", "n42"),
        ("n42", 42),
        ("n-1.5", -1.5),
        ("n1751732545053", 1_751_732_545_053),
        ("n1e+21", .number(1e21)),
        ("btrue", true),
        ("bfalse", false),
        ("o{\"a\":[1,\"x\"]}", ["a": [1, "x"]]),
        ("onull", .null),
        ("o[]", []),
    ]

    @Test(arguments: readable)
    func storedStringsAreDecoded(stored: JSONValue, value: JSONValue) throws {
        #expect(try ManagerValueEncoding.decode(stored) == value)
    }

    static let unreadable: [JSONValue] = ["", "xfoo", "nNaN", "nInfinity", "n", "n\"x\"", "bmaybe", "o{broken", 42, true, ["a"], .null]

    @Test(arguments: unreadable)
    func anythingElseIsRefusedWithTheReason(stored: JSONValue) {
        #expect(throws: ManagerValueEncoding.Unreadable.self) { try ManagerValueEncoding.decode(stored) }
    }

    @Test func aStoreIsDecodedKeyByKeyInOrder() {
        let decoded = ManagerValueEncoding.decodeStore(["theme": "sdark", "odd": "x1", "count": "n3"])
        #expect(decoded.values.map(\.key) == ["theme", "count"])
        #expect(decoded.values.map(\.value) == ["dark", 3])
        #expect(decoded.notCarried == ["not carried over: the value \"odd\": \"x1\" does not start with a type letter the managers write (s, n, b or o)"])
        #expect(ManagerValueEncoding.decodeStore("sdark").notCarried.count == 1)
    }

    @Test func violentmonkeysURIEscapesAsItsEncodeFilenameDoes() {
        let script = UserScript(text: "// ==UserScript==\n// @name Tidy up: 100%\n// @namespace https://example.com/a-b\n// ==/UserScript==\n")
        #expect(ViolentmonkeyBackup.uri(of: script) == "https-3a-2f-2fexample.com-2fa-2db-0aTidy-20up-3a-20100-25-0a")
        let unnamed = UserScript(text: "// ==UserScript==\n// @namespace ns\n// ==/UserScript==\n")
        #expect(ViolentmonkeyBackup.uri(of: unnamed) == "ns-0a-0a")
        #expect(ViolentmonkeyBackup.uri(of: UserScript(text: "go()")) == nil)
        let wide = UserScript(text: "// ==UserScript==\n// @name a\u{3000}b\n// ==/UserScript==\n")
        #expect(ViolentmonkeyBackup.uri(of: wide) == "-0aa-3000b-0a")
    }
}
