import Foundation

/// What an import did with each file: imported byte for byte (with what PageScript concludes
/// about it), already in the library, or refused, and why.
public struct ImportReport: Hashable, Sendable {
    /// What happened to one file.
    public enum Outcome: Hashable, Sendable {
        /// It is now in the library as this script.
        case imported(StoredScript)
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

    /// The scripts that were imported.
    public var imported: [StoredScript] {
        entries.compactMap { entry in
            if case .imported(let script) = entry.outcome { return script }
            return nil
        }
    }

    /// The files that were refused, with the reason.
    public var refused: [(source: URL, reason: String)] {
        entries.compactMap { entry in
            if case .refused(let reason) = entry.outcome { return (entry.source, reason) }
            return nil
        }
    }
}
