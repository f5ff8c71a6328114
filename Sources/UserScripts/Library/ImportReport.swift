import Foundation

/// What an import did with each file: imported (with notes on what was converted or refused
/// inside it), already in the library, or refused as a whole, and why.
public struct ImportReport: Hashable, Sendable {
    /// A remark about one line of an imported file.
    public struct Note: Hashable, Sendable, CustomStringConvertible {
        /// What kind of remark it is.
        public enum Kind: Hashable, Sendable {
            /// An `@include`/`@exclude` glob was converted to strict match patterns.
            case converted
            /// A rule or value PageScript cannot honour was set aside (kept as a comment).
            case refused
            /// A `@grant`, `@require` or `@resource` PageScript does not provide.
            case unsupported
            /// Something was added so the script behaves as it did in its old manager.
            case added
            /// Something worth knowing about how the script will behave.
            case notice
        }

        /// What kind of remark it is.
        public let kind: Kind
        /// The 1-based line in the original file, when the remark is about one line.
        public let line: Int?
        /// The remark.
        public let message: String

        /// "line N: message", or the message alone.
        public var description: String {
            line.map { "line \($0): \(message)" } ?? message
        }
    }

    /// What happened to one file.
    public enum Outcome: Hashable, Sendable {
        /// It is now in the library as this script.
        case imported(StoredScript)
        /// The library already has a script with exactly this text.
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
        /// Remarks about its lines (for an imported file, what was converted, set aside or added).
        public let notes: [Note]
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
