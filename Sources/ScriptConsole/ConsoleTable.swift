import SystemSupport

/// The data of a `console.table` call, as the browsers' consoles lay it out.
///
/// The first column is `(index)` (the row's key), then one column per key the rows have (or the
/// columns the call named), then `Value` when some rows are not objects. Every cell is text; a
/// row without a member for a column has an empty cell.
///
/// ```swift
/// // console.table([{a: 1}, {a: 2, b: 3}])
/// table.columns  // ["(index)", "a", "b"]
/// table.rows     // [["0", "1", ""], ["1", "2", "3"]]
/// ```
public struct ConsoleTable: Sendable, Hashable {
    /// The column headings, `(index)` first.
    public let columns: [String]
    /// One array of cells per row, as many as there are columns.
    public let rows: [[String]]

    public init(columns: [String], rows: [[String]]) {
        self.columns = columns
        self.rows = rows
    }

    /// `{"columns":[...],"rows":[[...]]}`.
    public var json: JSONValue {
        ["columns": .array(columns.map { .string($0) }), "rows": .array(rows.map { .array($0.map { .string($0) }) })]
    }
}
