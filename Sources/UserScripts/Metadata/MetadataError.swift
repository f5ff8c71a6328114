/// Why a userscript's metadata block cannot be read, with the line where the problem is.
///
/// A file with such an error is reported by the library and left untouched.
public struct MetadataError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public enum Kind: Hashable, Sendable {
        /// `// ==UserScript==` is never followed by `// ==/UserScript==`.
        case unterminatedBlock
        /// `// ==/UserScript==` appears before any `// ==UserScript==`.
        case closingWithoutOpening
        /// A second `// ==UserScript==` inside the block.
        case nestedOpening
        /// A line inside the block is neither blank nor a `//` comment.
        case notAComment
        /// `// @` with nothing after the `@`.
        case emptyKey
        /// A line such as `// name Foo`, a known key written without its `@`.
        case keyWithoutAt(String)
        /// A key that may appear only once (`@name`, `@namespace`, `@version`, `@description`,
        /// `@run-at`, and their localised forms) appears again; `firstLine` is where it first was.
        case duplicatedKey(String, firstLine: Int)
        /// A key that needs a value (`@name`) has none.
        case missingValue(String)
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
        case .unterminatedBlock:
            "`// ==UserScript==` is never closed by `// ==/UserScript==`"
        case .closingWithoutOpening:
            "`// ==/UserScript==` comes before any `// ==UserScript==`"
        case .nestedOpening:
            "a second `// ==UserScript==` inside the metadata block"
        case .notAComment:
            "every line inside the metadata block must be blank or a `//` comment"
        case .emptyKey:
            "`@` is not followed by a key name"
        case .keyWithoutAt(let key):
            "`\(key)` looks like a key without its `@`: write `// @\(key) ...`, or reword the comment"
        case .duplicatedKey(let key, let firstLine):
            "@\(key) appears again (first on line \(firstLine)); it may appear only once"
        case .missingValue(let key):
            "@\(key) has no value"
        case .lineBreakInValue(let key):
            "the value for @\(key) contains a line break"
        case .invalidKey(let key):
            "`\(key)` is not a valid key name"
        }
    }
}
