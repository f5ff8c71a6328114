import Injection
import SystemSupport
import TerminalUI

extension ScriptRunResult {
    /// The editor's view of a script's outcome on the page.
    init(_ result: Injection.ScriptResult) {
        self.init(
            value: result.value.map(ResultValue.init),
            console: result.console.map(ConsoleLine.init),
            exception: result.error.map {
                ScriptException(name: $0.name, message: $0.message, line: $0.line, column: $0.column, stack: $0.stack)
            })
    }
}

extension ConsoleLine {
    /// A console entry with what the panel draws of it: the group depth, a table's cells and a
    /// trace's frames.
    init(_ message: ConsoleMessage) {
        self.init(level: Level(rawValue: message.level.rawValue), message: message.message, depth: message.depth,
                  table: message.table.map { TerminalUI.ConsoleTable(columns: $0.columns, rows: $0.rows) },
                  stack: message.stack.map(\.description))
    }
}

extension ResultValue {
    /// The value as the page's JSON gave it; numbers keep their JSON text, and a DOM node's
    /// marker (`{"$node": "<input#q.search name=q>"}`) becomes a node.
    init(_ json: JSONValue) {
        if let node = NodeDescription(json) {
            self = .node(node.text)
            return
        }
        switch json {
        case .null: self = .null
        case .bool(let value): self = .bool(value)
        case .integer, .number: self = .number(json.serialized)
        case .string(let text): self = .string(text)
        case .array(let items): self = .array(items.map(ResultValue.init))
        case .object(let pairs): self = .object(pairs.map { Member(key: $0.key, value: ResultValue($0.value)) })
        }
    }
}
