import Testing
import WebDriver

struct JSONValueTests {
    @Test(arguments: [
        #"{"a":1,"b":[true,false,null],"c":"x"}"#,
        #"[1.5,-2,1e+21,"\u00e9"]"#,
        #"{"nested":{"deeper":{"deepest":[[]]}}}"#,
        #""""#,
        #"-0.25"#,
    ])
    func parsesAndSerialisesWithoutChange(text: String) throws {
        let value = try JSONValue(parsing: text)
        let again = try JSONValue(parsing: value.serialized)
        #expect(again == value)
    }

    @Test func keepsIntegersAndKeyOrder() throws {
        let value = try JSONValue(parsing: #"{"z":42,"a":9007199254740993,"m":0.5}"#)
        #expect(value.serialized == #"{"z":42,"a":9007199254740993,"m":0.5}"#)
    }

    @Test(arguments: [
        ("\u{1B}[2J", #""\u001b[2J""#),
        ("\u{9B}31m", #""\u009b31m""#),
        ("a\u{202E}b", #""a\u202eb""#),
        ("line\u{2028}sep", #""line\u2028sep""#),
        ("tab\tnew\nline", #""tab\tnew\nline""#),
        ("é 日本 👍", "\"é 日本 👍\""),
    ])
    func escapesEverythingATerminalWouldObey(raw: String, expected: String) {
        #expect(JSONValue.string(raw).serialized == expected)
    }

    @Test(arguments: ["", "{", "[1,]", "{\"a\" 1}", "tru", "01x", "\"\u{01}\"", "[1] 2", "\"\\q\""])
    func refusesMalformedText(text: String) {
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: text) }
    }

    @Test func refusesHostileNesting() {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: deep) }
    }

    @Test func decodesSurrogatePairsAndReplacesLoneOnes() throws {
        #expect(try JSONValue(parsing: #""\ud83d\ude00""#) == .string("😀"))
        #expect(try JSONValue(parsing: #""a\ud800b""#) == .string("a\u{FFFD}b"))
    }

    @Test func everyW3CErrorCodeIsKnown() {
        #expect(WebDriverErrorCode.allCases.count == 28)
        for code in WebDriverErrorCode.allCases {
            #expect(WebDriverErrorCode(rawValue: code.rawValue) == code)
        }
    }
}
