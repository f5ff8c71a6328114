import Foundation

/// What an export did with each script.
public struct ExportReport: Hashable, Sendable {
    /// What happened to one script.
    public enum Outcome: Hashable, Sendable {
        /// The file was written.
        case written
        /// The destination already held exactly this text.
        case unchanged
        /// A different file is at the destination and was left alone.
        case refused(reason: String)
    }

    /// One script's result.
    public struct Entry: Hashable, Sendable {
        /// The script's ID in the library.
        public let id: ScriptID
        /// Its name.
        public let name: String
        /// The file it was (or would have been) written to.
        public let destination: URL
        /// What happened.
        public let outcome: Outcome
    }

    /// One entry per exported script, in library order.
    public let entries: [Entry]
}
