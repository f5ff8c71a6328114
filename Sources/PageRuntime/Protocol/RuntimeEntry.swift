import SystemSupport

/// The runtime's entry point on one document: the random global name Action.js is installed under,
/// the random key without which it does nothing, and a challenge it answers with a response only
/// PageScript and the runtime know.
///
/// The name is readable by the page, so a page can plant a function of its own under it in a
/// document the runtime is not installed in (one it moved to by itself, or the next one a
/// session's visits open, which install under one entry so that the installation's text stays the
/// same; other installations draw a new one). Every call
/// therefore first asks the function under the name for the response to the challenge, from
/// strict-mode code (so that nothing the page runs can read the call's text or arguments through
/// `caller`), and hands the key and the request over only to the function that answered right. A
/// function that answered wrong has learnt the challenge: the entry is then never used again
/// (``PageSession``), so the challenge is worth nothing to the page.
struct RuntimeEntry: Sendable, Hashable {
    /// The property of `window` that holds the entry function.
    let name: String
    /// The key every call passes; a call without it returns `undefined`.
    let key: String
    /// What every call asks the function under ``name`` first.
    let challenge: String
    /// What the runtime answers to ``challenge``; a function that answers anything else is not
    /// the runtime.
    let response: String

    static func random() -> RuntimeEntry {
        var generator = SystemRandomNumberGenerator()
        func hex(_ bytes: Int) -> String {
            (0..<bytes).map { _ in String(UInt8.random(in: 0...255, using: &generator), radix: 16).leftPadded(to: 2) }.joined()
        }
        return RuntimeEntry(name: "pagescript_" + hex(12), key: hex(24), challenge: hex(24), response: hex(24))
    }

    /// `window[name]`, `key`, `challenge` and `response` as JavaScript string literals.
    var nameLiteral: String { JSONValue.string(name).serialized }
    var keyLiteral: String { JSONValue.string(key).serialized }
    var challengeLiteral: String { JSONValue.string(challenge).serialized }
    var responseLiteral: String { JSONValue.string(response).serialized }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
