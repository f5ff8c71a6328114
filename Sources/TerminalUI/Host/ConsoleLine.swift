/// One console message the script logged, with the structure browsers' consoles show it with.
///
/// The text comes from the page and is escaped before it is drawn. Besides the message, a line
/// may carry the rows of `console.table`, the stack of `console.trace`, and how deep inside
/// `console.group` it was logged; the output panel draws a table as a table, a stack under its
/// message and a grouped line indented.
///
/// ```swift
/// let heading = ConsoleLine(level: .group, message: "Links")
/// let row = ConsoleLine(level: .log, message: "https://example.com/", depth: 1)
/// let table = ConsoleLine(level: .table, message: "", table: ConsoleTable(columns: ["(index)", "a"], rows: [["0", "1"]]))
/// ```
public struct ConsoleLine: Hashable, Sendable {
    /// The console method that produced the message. Any method name is kept, so a level the
    /// editor does not know (a future console method) is shown under its own name, never dropped.
    public struct Level: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral {
        /// The method's name, such as `log` or `table`.
        public var rawValue: String

        /// A level named `rawValue`.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// A level from a literal, such as `"countReset"`.
        public init(stringLiteral value: String) {
            rawValue = value
        }

        /// `console.log`
        public static let log: Level = "log"
        /// `console.info`
        public static let info: Level = "info"
        /// `console.warn`, drawn in yellow.
        public static let warn: Level = "warn"
        /// `console.error`, and a failed `console.assert`, drawn in red.
        public static let error: Level = "error"
        /// `console.debug`, drawn dimmed.
        public static let debug: Level = "debug"
        /// `console.trace`: the message and the stack under it.
        public static let trace: Level = "trace"
        /// `console.dir`
        public static let dir: Level = "dir"
        /// `console.table`: drawn as a table.
        public static let table: Level = "table"
        /// `console.count` and `countReset`.
        public static let count: Level = "count"
        /// `console.time`, `timeLog` and `timeEnd`.
        public static let time: Level = "time"
        /// `console.assert` when it fails.
        public static let assert: Level = "assert"
        /// `console.group`: a heading; the lines logged inside it are one level deeper.
        public static let group: Level = "group"
        /// `console.groupCollapsed`: a heading like ``group``; the panel shows its lines too.
        public static let groupCollapsed: Level = "groupCollapsed"
    }

    /// How the message was logged.
    public var level: Level
    /// The message text, formatted by the page as a browser's console formats the arguments.
    public var message: String
    /// How many `console.group` levels the line was logged inside.
    public var depth: Int
    /// The rows of `console.table`.
    public var table: ConsoleTable?
    /// The frames of `console.trace`, innermost first.
    public var stack: [String]

    /// Creates a console line.
    public init(level: Level, message: String, depth: Int = 0, table: ConsoleTable? = nil, stack: [String] = []) {
        self.level = level
        self.message = message
        self.depth = max(0, depth)
        self.table = table
        self.stack = stack
    }
}

/// The data of a `console.table` call, cell by cell, as the page formatted each value.
public struct ConsoleTable: Hashable, Sendable {
    /// The column headings; the first is usually `(index)`.
    public var columns: [String]
    /// The rows, each with one cell per column (a missing cell is empty).
    public var rows: [[String]]

    /// Creates a table.
    public init(columns: [String], rows: [[String]]) {
        self.columns = columns
        self.rows = rows
    }
}
