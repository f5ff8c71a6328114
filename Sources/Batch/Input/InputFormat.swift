/// How a batch's input is laid out.
///
/// A URL list has one URL per line. A table (CSV, TSV) has a header row naming its columns, one
/// of them `url`; JSON lines have one object per line with a `url` member. The other columns or
/// members of a row are its fields: they reach the script as `input` (with `url`) and are copied
/// into the row's record (``BatchRecord/fields``), so an id or a parameter travels with its page.
///
/// ```swift
/// InputFormat.inferred(fromPath: "pages.csv")    // .table(delimiter: ",")
/// InputFormat.inferred(fromPath: "urls.txt")     // .urlList
/// ```
public enum InputFormat: Sendable, Equatable {
    /// One URL per line; blank lines and `#` comments skipped.
    case urlList
    /// A header row, then one row per page, cells separated by `delimiter` (`,` or a tab) and
    /// quoted as RFC 4180 says (a cell in double quotes may hold the delimiter, line breaks and
    /// `""` for a quote).
    case table(delimiter: UInt8)
    /// One JSON object per line.
    case jsonLines

    /// The format a file's name says: `.csv`, `.tsv`, `.jsonl` or `.ndjson`, else a URL list.
    public static func inferred(fromPath path: String?) -> InputFormat {
        let lowered = (path ?? "").lowercased()
        if lowered.hasSuffix(".csv") { return .table(delimiter: UInt8(ascii: ",")) }
        if lowered.hasSuffix(".tsv") { return .table(delimiter: UInt8(ascii: "\t")) }
        if lowered.hasSuffix(".jsonl") || lowered.hasSuffix(".ndjson") { return .jsonLines }
        return .urlList
    }

    /// The format named `name` (`list`, `csv`, `tsv`, `jsonl`), for `--input-format`.
    public init?(name: String) {
        switch name.lowercased() {
        case "list", "txt", "text": self = .urlList
        case "csv": self = .table(delimiter: UInt8(ascii: ","))
        case "tsv": self = .table(delimiter: UInt8(ascii: "\t"))
        case "jsonl", "ndjson", "json-lines": self = .jsonLines
        default: return nil
        }
    }
}
