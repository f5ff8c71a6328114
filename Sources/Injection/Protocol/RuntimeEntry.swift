import WebDriver

/// The runtime's entry point on one document: the random global name Action.js is installed under
/// and the random key without which it does nothing.
///
/// A new pair is drawn for every installation, so a page cannot learn a name in one document and
/// lie in wait for it in the next.
struct RuntimeEntry: Sendable, Equatable {
    /// The property of `window` that holds the entry function.
    let name: String
    /// The key every call passes; a call without it returns `undefined`.
    let key: String

    static func random() -> RuntimeEntry {
        var generator = SystemRandomNumberGenerator()
        func hex(_ bytes: Int) -> String {
            (0..<bytes).map { _ in String(UInt8.random(in: 0...255, using: &generator), radix: 16).leftPadded(to: 2) }.joined()
        }
        return RuntimeEntry(name: "pagescript_" + hex(12), key: hex(24))
    }

    /// `window[name]` and `key` as JavaScript string literals.
    var nameLiteral: String { JSONValue.string(name).serialized }
    var keyLiteral: String { JSONValue.string(key).serialized }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
