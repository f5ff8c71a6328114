/// A script's value laid out as indented, coloured JSON, with long arrays and deep objects
/// folded.
///
/// Small containers stay on one line when they fit (`[1, 2, 3]`, `{"a": 1}`), as browsers'
/// consoles show them. A container deeper than ``foldDepth`` starts folded (`{…} 12 keys`),
/// and an array longer than ``arrayPreview`` shows its first items and a line for the rest.
/// Each folded or foldable line carries the container's path, so Enter in the panel unfolds or
/// folds it; `toggled` holds the paths the user changed from how they start.
struct ValueLayout {
    /// Containers at this depth or deeper start folded.
    static let foldDepth = 3
    /// Array items shown before a "… more items" line.
    static let arrayPreview = 100
    /// Containers with more entries than this never go on one line.
    static let inlineEntries = 8
    /// Characters of one string shown.
    static let stringLimit = 8_000

    static let keyStyle = CellStyle(foreground: .cyan)
    static let stringStyle = CellStyle(foreground: .green)
    static let numberStyle = CellStyle(foreground: .yellow)
    static let literalStyle = CellStyle(foreground: .magenta)
    static let nodeStyle = CellStyle(foreground: .blue, attributes: .bold)
    static let noteStyle = CellStyle(attributes: .dim)

    let width: Int
    let toggled: Set<[Int]>
    private(set) var lines: [PanelLine] = []

    /// The lines of `value`, the first starting with `prefix` (such as `← `); the rest are
    /// indented by the prefix's width.
    static func lines(of value: ResultValue, prefix: StyledSpan, indent: Int, width: Int, toggled: Set<[Int]>) -> [PanelLine] {
        var layout = ValueLayout(width: width, toggled: toggled)
        layout.emit(value, key: nil, path: [], depth: 0, indent: indent, lead: [prefix], trailing: "")
        return layout.lines
    }

    /// Whether the container at `path` is shown folded.
    func isFolded(_ path: [Int], depth: Int) -> Bool {
        (depth >= Self.foldDepth) != toggled.contains(path)
    }

    private mutating func emit(_ value: ResultValue, key: String?, path: [Int], depth: Int, indent: Int,
                               lead: [StyledSpan], trailing: String) {
        var head = lead
        if let key {
            head.append(.escaped(Self.quoted(key), Self.keyStyle))
            head.append(.plain(": "))
        }
        let tail: [StyledSpan] = trailing.isEmpty ? [] : [.plain(trailing)]
        guard let children = value.children else {
            lines.append(PanelLine(indent: indent, head + Self.scalarSpans(value) + tail))
            return
        }
        let (open, close) = if case .array = value { ("[", "]") } else { ("{", "}") }
        if children.isEmpty {
            lines.append(PanelLine(indent: indent, head + [.plain(open + close)] + tail))
            return
        }
        let headWidth = head.reduce(indent) { $0 + GlyphWidth.columns(of: $1.text) }
        if !toggled.contains(path), let inline = Self.inlineSpans(value, room: width - headWidth - trailing.count) {
            lines.append(PanelLine(indent: indent, head + inline + tail))
            return
        }
        if isFolded(path, depth: depth) {
            let count = children.count
            let noun = if case .array = value { count == 1 ? "item" : "items" } else { count == 1 ? "key" : "keys" }
            lines.append(PanelLine(indent: indent, head + [.plain(open + "…" + close), .plain(" \(count) \(noun)", Self.noteStyle)] + tail,
                                   foldPath: path))
            return
        }
        lines.append(PanelLine(indent: indent, head + [.plain(open)], foldPath: path))
        // The value's text starts after the lead (`← `); its members go two columns further, and
        // the closing bracket lines up with the opening one's line.
        let base = indent + lead.reduce(0) { $0 + GlyphWidth.columns(of: $1.text) }
        let childIndent = base + 2
        switch value {
        case .array(let items):
            let showsAll = items.count <= Self.arrayPreview || toggled.contains(path + [-1])
            let shown = showsAll ? items.count : Self.arrayPreview
            for index in 0..<shown {
                emit(items[index], key: nil, path: path + [index], depth: depth + 1, indent: childIndent, lead: [],
                     trailing: index < items.count - 1 ? "," : "")
            }
            if shown < items.count {
                lines.append(PanelLine(indent: childIndent, [.plain("… \(items.count - shown) more items (Enter shows them)", Self.noteStyle)],
                                       foldPath: path + [-1]))
            }
        case .object(let members):
            for (index, member) in members.enumerated() {
                emit(member.value, key: member.key, path: path + [index], depth: depth + 1, indent: childIndent, lead: [],
                     trailing: index < members.count - 1 ? "," : "")
            }
        default:
            break
        }
        lines.append(PanelLine(indent: base, [.plain(close)] + tail))
    }

    /// The container on one line when it is small, holds only scalars or small containers, and
    /// fits in `room` columns.
    private static func inlineSpans(_ value: ResultValue, room: Int) -> [StyledSpan]? {
        guard let children = value.children, children.count <= inlineEntries else { return nil }
        var spans: [StyledSpan] = []
        let (open, close) = if case .array = value { ("[", "]") } else { ("{", "}") }
        spans.append(.plain(open))
        switch value {
        case .array(let items):
            for (index, item) in items.enumerated() {
                guard let inner = inlineSpansOfChild(item) else { return nil }
                if index > 0 { spans.append(.plain(", ")) }
                spans += inner
            }
        case .object(let members):
            for (index, member) in members.enumerated() {
                guard let inner = inlineSpansOfChild(member.value) else { return nil }
                if index > 0 { spans.append(.plain(", ")) }
                spans.append(.escaped(quoted(member.key), keyStyle))
                spans.append(.plain(": "))
                spans += inner
            }
        default:
            return nil
        }
        spans.append(.plain(close))
        let columns = spans.reduce(0) { $0 + GlyphWidth.columns(of: $1.text) }
        return columns <= room ? spans : nil
    }

    private static func inlineSpansOfChild(_ value: ResultValue) -> [StyledSpan]? {
        guard let children = value.children else { return scalarSpans(value) }
        if children.isEmpty {
            if case .array = value { return [.plain("[]")] }
            return [.plain("{}")]
        }
        return nil
    }

    private static func scalarSpans(_ value: ResultValue) -> [StyledSpan] {
        switch value {
        case .null: return [.plain("null", literalStyle)]
        case .bool(let flag): return [.plain(flag ? "true" : "false", literalStyle)]
        case .number(let text): return [.escaped(text, numberStyle)]
        case .string(let text):
            let shown = text.count > stringLimit ? String(text.prefix(stringLimit)) : text
            var spans: [StyledSpan] = [.escaped(quoted(shown), stringStyle)]
            if shown.count < text.count {
                spans.append(.plain(" … \(text.count - stringLimit) more characters", noteStyle))
            }
            return spans
        case .node(let description): return [.escaped(description, nodeStyle)]
        case .array, .object: return []
        }
    }

    /// A string as JSON writes it: in quotes, with quotes, backslashes and control characters
    /// escaped.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 {
                    result += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16)
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}
