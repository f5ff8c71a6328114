import Testing
import SystemSupport

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
        ("\"日\u{FEFF}👍\u{200B}\"", #""\"日\ufeff👍\u200b\"""#),
        ("\u{7F}\u{85}x\\", #""\u007f\u0085x\\""#),
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
        #expect(try JSONValue(parsing: #""\ud800\u0041""#) == .string("\u{FFFD}A"))
        #expect(try JSONValue(parsing: #""\udc00x""#) == .string("\u{FFFD}x"))
    }

    @Test(arguments: [
        (#""\"\\\/\b\f\n\r\t""#, "\"\\/\u{8}\u{C}\n\r\t"),
        (#""é\"日本\"👍\\end""#, "é\"日本\"👍\\end"),
        (#""\u00e9\u65e5x""#, "é日x"),
        (#""plain é 日本""#, "plain é 日本"),
    ])
    func decodesEveryEscapeBetweenRunsOfText(text: String, expected: String) throws {
        #expect(try JSONValue(parsing: text) == .string(expected))
    }

    /// A runtime reply is JSON inside a JSON string: tens of thousands of escaped quotes in one
    /// string, which must come back whole (the parser once copied the text so far at each one).
    @Test func decodesAStringOfManyEscapes() throws {
        let inner = "[" + (0..<70_000).map { #"{"$node":"<div#n\#($0).row>"}"# }.joined(separator: ",") + "]"
        let outer = JSONValue.object([("value", .string(inner))]).serialized
        let parsed = try JSONValue(parsing: outer)
        #expect(parsed["value"]?.stringValue == inner)
        let nodes = try JSONValue(parsing: try #require(parsed["value"]?.stringValue))
        #expect(nodes.arrayValue?.count == 70_000)
        #expect(nodes.arrayValue?.last == ["$node": "<div#n69999.row>"])
    }
}
