import Foundation
import SystemSupport

/// Lays records out as CSV rows under one header, for `--format csv`.
///
/// The columns are the record's members in their JSON order, with two of them spread out: a
/// row's `fields` become one column per field (named as the input names it) and an object
/// `value` one column per member. A name already taken by a record member (`url`, `title`, ...)
/// is prefixed: `input.title`, `value.url`; so is a value's member named as a field (`value.id`
/// beside the input's `id`). The `value` column stays: it holds a value that is
/// not an object, or, as a JSON object, the members of one that have no column of their own;
/// a last column, `more`, holds (as a JSON object) anything else without a column. Nothing is
/// left out.
///
/// The header can only be written once the columns are known, which takes a record with a
/// value: records wait (at most ``pendingLimit`` of them) until the first one that has a value
/// arrives, or the batch ends. A header read back from a file being resumed is kept as it is.
///
/// A cell is a string's text, a number's or a boolean's JSON, nothing for `null`, and the JSON
/// text of an array or an object. On a terminal, cells are escaped as every page text is
/// (``TerminalSafeText``).
///
/// ```swift
/// var table = RecordTable(columns: nil, escapingForTerminal: false)
/// table.rows(for: record)      // the header and the record's row, once the record has a value
/// table.remainingRows()        // what still waits, at the end
/// ```
struct RecordTable {
    /// Records held before the header is written, at most.
    static let pendingLimit = 100
    /// Every member a record may have, in order: names a field or a value's member may not take.
    static let recordMembers = ["index", "input", "fields", "requested", "status", "url", "title", "value", "scripts", "console",
                                "dialogs", "error", "userscript", "httpStatus", "load", "startedAt", "durationMs", "attempts", "engine", "schema"]
    /// Members only some records have, given a column whether the first records have them or not.
    static let occasionalMembers: Set<String> = ["load"]
    static let moreColumn = "more"

    /// The columns, once known.
    private(set) var columns: [String]?
    private var pending: [BatchRecord] = []
    private let escapingForTerminal: Bool

    /// A table with `columns` already written (a resumed file's), or none yet.
    init(columns: [String]?, escapingForTerminal: Bool) {
        self.columns = columns
        self.escapingForTerminal = escapingForTerminal
    }

    /// The lines to write for `record`, in order, each with the status of the record it holds
    /// (`nil` for the header): none while the columns wait for a value, then the header and
    /// every record that waited.
    mutating func rows(for record: BatchRecord) -> [(line: String, status: RecordStatus?)] {
        if columns != nil { return [(row(record.json), record.status)] }
        pending.append(record)
        let hasValue = record.json["value"].map { $0 != .null } ?? false
        guard hasValue || record.json["scripts"] != nil || pending.count >= Self.pendingLimit else { return [] }
        return remainingRows()
    }

    /// The header (when not written yet) and the rows of every record still waiting.
    mutating func remainingRows() -> [(line: String, status: RecordStatus?)] {
        guard !pending.isEmpty || columns != nil else { return [] }
        var lines: [(line: String, status: RecordStatus?)] = []
        let records = pending.map { ($0.json, $0.status) }
        pending.removeAll()
        if columns == nil {
            let decided = Self.columns(for: records.map(\.0))
            columns = decided
            lines.append((decided.map(Self.quoted).joined(separator: ","), nil))
        }
        lines += records.map { (row($0.0), $0.1) }
        return lines
    }

    /// The columns for records shaped as `records` are.
    static func columns(for records: [JSONValue]) -> [String] {
        var columns: [String] = []
        var fieldNames: Set<String> = []
        func add(_ name: String) {
            if !columns.contains(name) { columns.append(name) }
        }
        for member in recordMembers {
            let values = records.compactMap { $0[member] }
            guard !values.isEmpty || occasionalMembers.contains(member) else { continue }
            switch member {
            case "fields":
                for case let .object(members) in values {
                    for field in members {
                        fieldNames.insert(field.key)
                        add(fieldColumn(field.key))
                    }
                }
            case "value":
                for case let .object(members) in values { members.forEach { add(valueColumn($0.key, fieldNames: fieldNames)) } }
                add("value")
            default:
                add(member)
            }
        }
        add(moreColumn)
        return columns
    }

    /// A field's column: its name, or `input.` and its name when a record member has that name.
    static func fieldColumn(_ name: String) -> String {
        recordMembers.contains(name) || name == moreColumn ? "input." + name : name
    }

    /// A value member's column: its name, or `value.` and its name when a record member or a
    /// field has that name.
    static func valueColumn(_ name: String, fieldNames: Set<String>) -> String {
        recordMembers.contains(name) || name == moreColumn || fieldNames.contains(name) ? "value." + name : name
    }

    /// The names of the fields whose columns `columns` has: the columns between `input` and
    /// `requested`, as ``columns(for:)`` lays them out.
    static func fieldNames(in columns: [String]) -> Set<String> {
        guard let input = columns.firstIndex(of: "input"), let requested = columns.firstIndex(of: "requested"), input < requested else { return [] }
        return Set(columns[(input + 1)..<requested].map { $0.hasPrefix("input.") ? String($0.dropFirst(6)) : $0 })
    }

    /// One record's row under ``columns``.
    private func row(_ record: JSONValue) -> String {
        let columns = columns ?? []
        let fieldNames = Self.fieldNames(in: columns)
        var cells: [String: JSONValue] = [:]
        var more: [(key: String, value: JSONValue)] = []
        func place(_ column: String, _ value: JSONValue, otherwise: () -> Void) {
            if columns.contains(column) { cells[column] = value } else { otherwise() }
        }
        guard case let .object(members) = record else { return "" }
        for (key, value) in members {
            switch (key, value) {
            case let ("fields", .object(fields)):
                var left: [(key: String, value: JSONValue)] = []
                for field in fields {
                    place(Self.fieldColumn(field.key), field.value) { left.append(field) }
                }
                if !left.isEmpty { more.append((key: "fields", value: .object(left))) }
            case let ("value", .object(valueMembers)) where columns.contains("value"):
                var left: [(key: String, value: JSONValue)] = []
                for member in valueMembers {
                    place(Self.valueColumn(member.key, fieldNames: fieldNames), member.value) { left.append(member) }
                }
                // An object with a member of its own for every one of its members has none left.
                if !left.isEmpty || valueMembers.isEmpty { cells["value"] = .object(left) }
            default:
                place(key, value) { more.append((key: key, value: value)) }
            }
        }
        if !more.isEmpty { cells[Self.moreColumn] = .object(more) }
        return columns.map { cell(cells[$0]) }.joined(separator: ",")
    }

    /// A cell's text, quoted when it needs to be.
    private func cell(_ value: JSONValue?) -> String {
        let text: String = switch value {
        case nil, .null?: ""
        case let .string(string)?: string
        case let value?: value.serialized
        }
        return Self.quoted(escapingForTerminal ? TerminalSafeText.escaped(text) : text)
    }

    /// `text` as a CSV cell: in double quotes, its quotes doubled, when it holds a comma, a quote
    /// or a line break, or starts or ends with a space.
    static func quoted(_ text: String) -> String {
        let needsQuotes = text.contains { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
            || text.first == " " || text.last == " "
        guard needsQuotes else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
