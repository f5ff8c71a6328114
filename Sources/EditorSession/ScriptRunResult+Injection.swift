import Injection
import TerminalUI
import WebDriver

extension ScriptRunResult {
    /// The editor's view of a script's outcome on the page.
    init(_ result: Injection.ScriptResult) {
        self.init(
            value: result.value.map(ResultValue.init),
            console: result.console.map { ConsoleLine(level: ConsoleLine.Level(rawValue: $0.level.rawValue), message: $0.message) },
            exception: result.error.map {
                ScriptException(name: $0.name, message: $0.message, line: $0.line, column: $0.column, stack: $0.stack)
            })
    }
}

extension ResultValue {
    /// The value as the page's JSON gave it; numbers keep their JSON text.
    init(_ json: JSONValue) {
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
