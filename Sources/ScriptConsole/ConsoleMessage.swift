import SystemSupport

/// One `console.*` call the script made while it ran.
///
/// Every console method the browsers' consoles have is captured: `log`, `info`, `warn`, `error`,
/// `debug`, `dir`, `dirxml`, `table` (with ``table``), `trace` (with ``stack``), `count`,
/// `timeLog`/`timeEnd`, `group`/`groupCollapsed` (later entries carry the nesting in ``depth``),
/// `assert` (only when it fails) and `clear`; a method a browser adds beyond these is kept under
/// its own name.
///
/// ```swift
/// let errors = result.console.filter { $0.level == .error }
///     .map { String(repeating: "  ", count: $0.depth) + $0.message }
/// ```
public struct ConsoleMessage: Sendable, Hashable {
    /// The console method that made the entry. Any name is kept, including ones this type does not
    /// list.
    public struct Level: RawRepresentable, Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
        public let rawValue: String

        public init(rawValue: String) { self.rawValue = rawValue }
        public init(stringLiteral value: String) { rawValue = value }
        public var description: String { rawValue }

        public static let log: Level = "log"
        public static let info: Level = "info"
        public static let warn: Level = "warn"
        public static let error: Level = "error"
        public static let debug: Level = "debug"
        public static let trace: Level = "trace"
        public static let dir: Level = "dir"
        public static let dirxml: Level = "dirxml"
        public static let table: Level = "table"
        public static let count: Level = "count"
        public static let timeLog: Level = "timeLog"
        public static let timeEnd: Level = "timeEnd"
        public static let group: Level = "group"
        public static let groupCollapsed: Level = "groupCollapsed"
        public static let assert: Level = "assert"
        public static let clear: Level = "clear"
    }

    /// Which method was called.
    public let level: Level
    /// The arguments, formatted the way a browser console shows them (`%s`, `%d`, `%o` ...
    /// substituted, DOM nodes as `<input#q.search name=q>`, objects as compact JSON).
    public let message: String
    /// How many `console.group` calls enclose this entry.
    public let depth: Int
    /// `console.table`'s data as rows and columns.
    public let table: ConsoleTable?
    /// `console.trace`'s stack, innermost frame first.
    public let stack: [StackFrame]

    public init(level: Level, message: String, depth: Int = 0, table: ConsoleTable? = nil, stack: [StackFrame] = []) {
        self.level = level
        self.message = message
        self.depth = depth
        self.table = table
        self.stack = stack
    }

    /// The entry as JSON: `{"level","message"}`, plus `depth`, `table` and `stack` when present.
    public var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [(key: "level", value: .string(level.rawValue)), (key: "message", value: .string(message))]
        if depth > 0 { members.append((key: "depth", value: .integer(Int64(depth)))) }
        if let table { members.append((key: "table", value: table.json)) }
        if level == .trace { members.append((key: "stack", value: .array(stack.map(\.json)))) }
        return .object(members)
    }
}
