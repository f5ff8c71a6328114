import Foundation

/// What an import did with each file: imported byte for byte (with what PageScript concludes
/// about it), already in the library, or refused, and why.
public struct ImportReport: Hashable, Sendable {
    /// What happened to one file.
    public enum Outcome: Hashable, Sendable {
        /// It is now in the library as this script.
        case imported(StoredScript)
        /// The library had a script with the same `@name` and `@namespace` (the managers' identity):
        /// this file replaced it as a new version, under its ID and with its values, and its old
        /// file went to the trash (`previousFile`). `previousVersion` is the `@version` it had.
        case updated(StoredScript, previousFile: URL, previousVersion: String?)
        /// The library already has a script with exactly these bytes.
        case alreadyInLibrary(ScriptID)
        /// It was not imported, for this reason.
        case refused(reason: String)
    }

    /// One file's result.
    public struct Entry: Hashable, Sendable {
        /// The file.
        public let source: URL
        /// What happened to it.
        public let outcome: Outcome
        /// What PageScript concludes about the script, when the file could be read.
        public let interpretation: ScriptInterpretation?
    }

    /// One entry per file, in path order.
    public let entries: [Entry]

    /// A report of these entries.
    public init(entries: [Entry]) {
        self.entries = entries
    }

    /// The scripts that were imported, as new scripts or as new versions of installed ones.
    public var imported: [StoredScript] {
        entries.compactMap { entry in
            switch entry.outcome {
            case let .imported(script), let .updated(script, _, _): script
            case .alreadyInLibrary, .refused: nil
            }
        }
    }

    /// What to tell the user about a new version that replaced an installed script: where the old
    /// file went, and a warning when the version went down (the managers warn too).
    ///
    /// ```swift
    /// ImportReport.updateNotes(script, previousFile: trash, previousVersion: "1.1")
    /// // ["replaces version 1.1 with 1.0, a lower version", "the previous file is in the trash: .../tidy-ab12cd34.user.js"]
    /// ```
    public static func updateNotes(_ script: StoredScript, previousFile: URL, previousVersion: String?) -> [String] {
        var notes: [String] = []
        let new = script.script.version
        if let previousVersion, let new, ScriptVersion(new) < ScriptVersion(previousVersion) {
            notes.append("replaces version \(previousVersion) with \(new), a lower version")
        } else if let previousVersion, previousVersion != new {
            notes.append("replaces version \(previousVersion) with \(new ?? "a file without @version")")
        }
        notes.append("the previous file is in the trash: \(previousFile.path(percentEncoded: false))")
        return notes
    }

    /// The files that were refused, with the reason.
    public var refused: [(source: URL, reason: String)] {
        entries.compactMap { entry in
            if case .refused(let reason) = entry.outcome { return (entry.source, reason) }
            return nil
        }
    }
}
