import SystemSupport

/// How Violentmonkey and Tampermonkey keep a `GM_setValue` value, and so how their backups hold
/// it: a string whose first letter says the type and whose rest is the value.
///
/// | stored | value |
/// | --- | --- |
/// | `sdark` | the string `"dark"` |
/// | `n42`, `n1.5` | the number |
/// | `btrue`, `bfalse` | the boolean |
/// | `o{"a":[1]}`, `onull` | any other value, as JSON |
///
/// Violentmonkey writes it in `dumpScriptValue` and reads it in `decodeValue`
/// (`src/common/util.js`, `src/injected/web/gm-values.js`); Tampermonkey's `.storage.json`
/// files hold the same strings (`{"ts": ..., "data": {"theme": "sdark", "count": "n3"}}`).
/// Anything else is refused with the reason rather than guessed at.
///
/// ```swift
/// try ManagerValueEncoding.decode("n3")           // .integer(3)
/// try ManagerValueEncoding.decode("o{\"a\":1}")   // ["a": 1]
/// ```
enum ManagerValueEncoding {
    /// Why a stored value cannot be read.
    struct Unreadable: Error, Hashable {
        let reason: String
    }

    /// The value `raw` stands for.
    static func decode(_ raw: JSONValue) throws(Unreadable) -> JSONValue {
        guard case .string(let text) = raw, let letter = text.first else {
            throw Unreadable(reason: "it is \(shortened(raw)), not a string with a type letter (s, n, b or o) as the managers store values")
        }
        let rest = String(text.dropFirst())
        switch letter {
        case "s":
            return .string(rest)
        case "b":
            guard rest == "true" || rest == "false" else { throw Unreadable(reason: "\(shortened(raw)) is neither btrue nor bfalse") }
            return .bool(rest == "true")
        case "n":
            // JavaScript writes every finite number in a form JSON reads; NaN and Infinity have none.
            if let number = try? JSONValue(parsing: rest), number.isNumber { return number }
            throw Unreadable(reason: "\(shortened(raw)) is not a number JSON can hold")
        case "o":
            do {
                return try JSONValue(parsing: rest)
            } catch {
                throw Unreadable(reason: "\(shortened(raw)) is not valid JSON after its type letter o")
            }
        default:
            throw Unreadable(reason: "\(shortened(raw)) does not start with a type letter the managers write (s, n, b or o)")
        }
    }

    /// Every value of one script's store (`{"key": "sdark", ...}`), decoded, with a line for
    /// each value that cannot be, and for a store that is not an object.
    static func decodeStore(_ store: JSONValue) -> (values: [(key: String, value: JSONValue)], notCarried: [String]) {
        guard case .object(let pairs) = store else {
            return ([], ["not carried over: its values, which are \(shortened(store)) rather than an object of keys"])
        }
        var values: [(key: String, value: JSONValue)] = []
        var notCarried: [String] = []
        for pair in pairs {
            do {
                values.append((pair.key, try decode(pair.value)))
            } catch {
                notCarried.append("not carried over: the value \(JSONValue.string(pair.key).serialized): \(error.reason)")
            }
        }
        return (values, notCarried)
    }

    /// `value` as JSON, cut after 40 characters.
    private static func shortened(_ value: JSONValue) -> String {
        let json = value.serialized
        return json.count > 40 ? String(json.prefix(40)) + "…" : json
    }
}

extension JSONValue {
    fileprivate var isNumber: Bool {
        switch self {
        case .integer, .number: true
        default: false
        }
    }
}
