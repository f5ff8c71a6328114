/// A script's completion value as the editor shows it: the shapes of JSON, object members in
/// the order the page gave them, and DOM nodes as nodes.
///
/// The host builds it from what the page returned. Numbers keep the text the page sent, so
/// `0.1`, `1e21` and `-0` show exactly as JSON wrote them. A DOM node arrives as its
/// description (tag, id, classes and name, such as `<input#q.search name=q>`) and is drawn as a
/// node, not as a quoted string. Every string in here came from the page and is escaped before
/// it is drawn.
///
/// ```swift
/// let value = ResultValue.object([
///     .init(key: "title", value: .string("Inbox")),
///     .init(key: "field", value: .node("<input#q.search name=q>")),
///     .init(key: "counts", value: .array([.number("1"), .number("2")])),
/// ])
/// ```
public enum ResultValue: Hashable, Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, as the JSON text that carried it.
    case number(String)
    /// A string.
    case string(String)
    /// An array (also what a `NodeList`, a `Set` or a typed array became).
    case array([ResultValue])
    /// An object, its members in the page's order.
    case object([Member])
    /// A DOM node, described by its tag, id, classes and name: `<input#q.search name=q>`.
    case node(String)

    /// One member of an object.
    public struct Member: Hashable, Sendable {
        /// The member's name.
        public var key: String
        /// The member's value.
        public var value: ResultValue

        /// Creates a member.
        public init(key: String, value: ResultValue) {
            self.key = key
            self.value = value
        }
    }

    /// The value's elements or members, for the containers; `nil` for the rest.
    var children: [ResultValue]? {
        switch self {
        case .array(let items): items
        case .object(let members): members.map(\.value)
        default: nil
        }
    }
}
