/// A script's identifier in the library: stable for the script's life, whatever it is named.
///
/// A script PageScript creates gets eight random characters (`k3m9x2ab`) that also end its file
/// name (`tidy-tables-k3m9x2ab.user.js`). A `.user.js` file put into the library folder by hand
/// keeps its file name, and its ID is the file name without `.user.js` (unless that already ends
/// in such eight characters). Renaming a script never changes its ID or its file.
public struct ScriptID: Hashable, Sendable, Comparable, Codable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The identifier's text.
    public let rawValue: String

    /// Wraps an identifier's text (as printed by ``description``).
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// An ID written as a literal, as in tests and examples.
    public init(stringLiteral value: String) {
        rawValue = value
    }

    /// The ID as it appears in file names and on the command line.
    public var description: String { rawValue }

    public static func < (lhs: ScriptID, rhs: ScriptID) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    /// Reads an ID stored as a plain JSON string.
    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    /// Stores the ID as a plain JSON string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// Lowercase letters and digits without the look-alikes `l`, `o`, `0` and `1`, so an ID read
    /// aloud or copied by hand survives.
    static let alphabet = Array("abcdefghijkmnpqrstuvwxyz23456789")
    static let randomLength = 8

    static func random() -> ScriptID {
        var generator = SystemRandomNumberGenerator()
        return ScriptID(String((0..<randomLength).map { _ in alphabet.randomElement(using: &generator) ?? "a" }))
    }

    /// The ID of a library file, from its name (`tidy-k3m9x2ab.user.js`).
    static func fromFileName(_ name: String) -> ScriptID? {
        guard name.hasSuffix(ScriptFileName.fileExtension) else { return nil }
        let stem = String(name.dropLast(ScriptFileName.fileExtension.count))
        guard !stem.isEmpty else { return nil }
        if let dash = stem.lastIndex(of: "-") {
            let suffix = stem[stem.index(after: dash)...]
            if suffix.count == randomLength, suffix.allSatisfy(alphabet.contains) { return ScriptID(String(suffix)) }
        }
        return ScriptID(stem)
    }
}
