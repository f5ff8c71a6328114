/// How a batch writes its records: one JSON object per line (``BatchRecord/line``), or CSV rows
/// under a header (``RecordTable``).
///
/// ```swift
/// OutputFormat.inferred(fromPath: "results.csv")   // .csv
/// OutputFormat.inferred(fromPath: nil)             // .jsonLines
/// ```
public enum OutputFormat: String, Sendable, Equatable, CaseIterable {
    /// JSON lines: every record whole, one per line.
    case jsonLines = "jsonl"
    /// CSV (RFC 4180): a header row, then one row per record, the value's members in columns of
    /// their own.
    case csv

    /// The format a file's name says: `.csv` is CSV, anything else (and standard output) JSON lines.
    public static func inferred(fromPath path: String?) -> OutputFormat {
        (path ?? "").lowercased().hasSuffix(".csv") ? .csv : .jsonLines
    }
}
