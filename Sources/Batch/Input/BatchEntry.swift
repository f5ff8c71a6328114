import SystemSupport

/// One URL line, or one row, of a batch's input.
///
/// Entries are numbered from 0 in input order, counting only the lines that hold a URL (blank
/// lines and `#` comments are skipped and numbered by nothing; a table's header is no entry). The index, not the URL's text,
/// identifies an entry: the same URL on two lines is two entries, run twice and recorded twice,
/// and `--resume` skips exactly the entries whose index is already in the output.
///
/// ```swift
/// let entry = BatchEntry(index: 0, line: 3, text: "https://example.com/")
/// entry.problem   // nil: the line can be tried as a URL
/// ```
public struct BatchEntry: Sendable, Equatable {
    /// The entry's position among the input's URL lines, from 0.
    public let index: Int
    /// The line it was read from, from 1, for messages.
    public let line: Int
    /// The URL's text without surrounding whitespace: the line's, or the row's `url` cell or
    /// member (lossily decoded when it is not UTF-8).
    public let text: String
    /// A row's other cells or members, as an object in the input's order (a table's cells as
    /// strings); `nil` for a line of a URL list.
    public let fields: JSONValue?
    /// Why the line cannot be a URL before anything looks at it (too long, not UTF-8); `nil`
    /// when it can be tried.
    public let problem: String?

    /// Creates an entry.
    ///
    /// - Parameters:
    ///   - index: The position among URL lines, from 0.
    ///   - line: The line number, from 1.
    ///   - text: The line's text.
    ///   - problem: Why the line cannot be a URL, if it cannot.
    ///   - fields: A row's other cells or members.
    public init(index: Int, line: Int, text: String, problem: String? = nil, fields: JSONValue? = nil) {
        self.index = index
        self.line = line
        self.text = text
        self.problem = problem
        self.fields = fields
    }

    /// What the script finds as `input`: `url` and the row's fields.
    public var scriptInput: JSONValue {
        guard case let .object(members)? = fields else { return ["url": .string(text)] }
        return .object([(key: "url", value: .string(text))] + members)
    }
}
