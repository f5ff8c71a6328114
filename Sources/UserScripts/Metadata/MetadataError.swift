/// Why an edit to a script's metadata cannot be made, with the line it is about.
///
/// Reading a script never fails (see ``ScriptNote`` for what PageScript notices while reading);
/// an edit that would break the block, such as a value with a line break that would end its
/// metadata line early, is refused and changes nothing.
public struct MetadataError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public enum Kind: Hashable, Sendable {
        /// A value given to an edit contains a line break, which would end the metadata line.
        case lineBreakInValue(String)
        /// A key given to an edit is empty or contains spaces.
        case invalidKey(String)
    }

    /// What is wrong.
    public let kind: Kind
    /// The 1-based line number the problem is on.
    public let line: Int

    /// A problem of `kind` on the 1-based `line`.
    public init(_ kind: Kind, line: Int) {
        self.kind = kind
        self.line = line
    }

    /// "line N: reason".
    public var description: String {
        "line \(line): \(reason)"
    }

    /// What is wrong, without the line number.
    public var reason: String {
        switch kind {
        case .lineBreakInValue(let key):
            "the value for @\(key) contains a line break"
        case .invalidKey(let key):
            "`\(key)` is not a valid key name"
        }
    }
}
