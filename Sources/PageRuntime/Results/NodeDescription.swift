import SystemSupport

/// A DOM node as a result shows it: `{"$node": "<input#q.search name=q>"}`, read back into its
/// parts so that a viewer can colour or lay it out.
///
/// The description's grammar: an element is `<` tag, then `#id`, then `.class` per class, then
/// ` name=value` when the element has a `name` attribute, then `>`; characters in an id or class
/// that would end it are escaped with `\`, and a name value that is not a plain word is a JSON
/// string. Other nodes: `#text "..."`, `<!--...-->`, `#document URL`, `<!DOCTYPE name>`,
/// `#shadow-root (open)`, `#document-fragment`, `#attribute name=value`.
///
/// ```swift
/// let node = NodeDescription(["$node": "<input#q.search name=q>"])
/// node?.tag      // "input"
/// node?.classes  // ["search"]
/// ```
public struct NodeDescription: Sendable, Equatable {
    /// The description as the page wrote it.
    public let text: String
    /// The element's tag name; `nil` for other nodes.
    public let tag: String?
    /// The element's id.
    public let id: String?
    /// The element's classes, in order.
    public let classes: [String]
    /// The element's `name` attribute.
    public let name: String?

    /// Reads `value` when it is a node marker (`{"$node": text}`); `nil` for any other value.
    public init?(_ value: JSONValue) {
        guard case let .object(members) = value, members.count == 1, members[0].key == "$node",
              let text = members[0].value.stringValue else { return nil }
        self.init(text: text)
    }

    /// Reads a description's text.
    public init(text: String) {
        self.text = text
        guard text.hasPrefix("<"), text.hasSuffix(">"), !text.hasPrefix("<!") else {
            tag = nil
            id = nil
            classes = []
            name = nil
            return
        }
        var characters = Substring(text.dropFirst().dropLast())
        var tag = ""
        var id: String?
        var classes: [String] = []
        var name: String?
        var current = ""
        var part: Character = "<"
        func finish() {
            switch part {
            case "<": tag = current
            case "#": id = current
            default: classes.append(current)
            }
            current = ""
        }
        while let character = characters.first {
            characters = characters.dropFirst()
            if character == "\\", let escaped = characters.first {
                current.append(escaped)
                characters = characters.dropFirst()
            } else if character == "#" || character == "." {
                finish()
                part = character
            } else if character == " ", characters.hasPrefix("name=") {
                let value = characters.dropFirst(5)
                if value.hasPrefix("\""), let decoded = try? JSONValue(parsing: String(value)), let string = decoded.stringValue {
                    name = string
                } else {
                    name = String(value)
                }
                break
            } else {
                current.append(character)
            }
        }
        finish()
        self.tag = tag
        self.id = id
        self.classes = classes
        self.name = name
    }
}
