import PageRuntime
import SystemSupport
import TerminalUI

extension ScriptRunResult {
    /// The editor's view of a script's outcome on the page.
    init(_ result: PageRuntime.ScriptResult) {
        self.init(
            value: result.value.map(ResultValue.init),
            console: result.console,
            exception: result.error.map {
                ScriptException(name: $0.name, message: $0.message, line: $0.line, column: $0.column, stack: $0.stack)
            })
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
