/// A `@connect` value that names no host PageScript can check.
public struct ConnectRuleError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The value as written.
    public let value: String
    /// Why it cannot be used.
    public let reason: String

    /// `@connect VALUE is ignored: REASON`.
    public var description: String { "@connect \(value) is ignored: \(reason)" }
}
