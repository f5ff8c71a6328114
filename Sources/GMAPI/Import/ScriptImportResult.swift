import UserScripts

/// What `scripts import` did: each script as the library's ``ImportReport`` tells it, what came
/// with it from a backup, the `@require`/`@resource` files fetched, and what the library's
/// lookups lack.
///
/// ```swift
/// let result = try await ScriptImporter(library: library).importScripts(from: "backup.zip")
/// result.entries[0].report.outcome   // .imported(...)
/// result.entries[0].notes            // ["3 values restored", "disabled, as in the backup"]
/// ```
public struct ScriptImportResult: Sendable {
    /// One script: what the library did with it, and what came with it.
    public struct Entry: Sendable {
        /// Imported, updated, unchanged or refused, as for a file.
        public let report: ImportReport.Entry
        /// What was carried over from the backup and what was not, one line each; empty for a
        /// file or a download.
        public let notes: [String]
    }

    /// The `@require`/`@resource` files fetched for one imported script that declares some.
    public struct Fetched: Sendable {
        /// The script.
        public let script: StoredScript
        /// What was fetched and what failed.
        public let files: DependencyReport
    }

    /// What the source was and what of it is not carried over that belongs to no one script
    /// (a manager's own settings, the scripts' order, entries not read); empty for files.
    public let notes: [String]
    /// One entry per script, in path (or entry name) order.
    public let entries: [Entry]
    /// The files fetched, per script that declares any; empty when fetching was not asked for.
    public let fetched: [Fetched]
    /// What the library cannot read that the imported scripts' rules need (the Public Suffix
    /// List for `.tld` rules).
    public let problems: [LibraryProblem]

    /// The library's report of every script.
    public var report: ImportReport { ImportReport(entries: entries.map(\.report)) }
}
