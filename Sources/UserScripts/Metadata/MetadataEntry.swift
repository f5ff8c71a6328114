/// One `// @key value` line of a metadata block.
public struct MetadataEntry: Hashable, Sendable {
    /// The key without its `@`, including a locale suffix: `name`, `name:fr`, `match`, `grant`.
    public let key: String
    /// The value with surrounding spaces removed; empty for flags such as `@noframes`.
    public let value: String
    /// The 1-based line number in the file.
    public let line: Int
    /// Where the value starts within the line, in UTF-8 bytes, so an edit keeps the alignment.
    let valueOffset: Int

    /// The key without a locale suffix: `name` for `name:fr`.
    public var baseKey: Substring {
        key.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)[0]
    }

    /// The locale of a localised key (`fr` for `name:fr`), or `nil`.
    public var locale: String? {
        let parts = key.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        return parts.count == 2 ? String(parts[1]) : nil
    }
}
