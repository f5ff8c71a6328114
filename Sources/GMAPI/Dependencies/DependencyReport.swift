/// What fetching a script's files did, file by file.
public struct DependencyReport: Sendable, Hashable {
    /// One declared file.
    public struct Entry: Sendable, Hashable, CustomStringConvertible {
        /// What happened to it.
        public enum Outcome: Sendable, Hashable {
            /// Downloaded, checked and stored.
            case fetched(sha256: String, size: Int, from: String)
            /// Already in the cache from an earlier fetch.
            case alreadyCached(sha256: String)
            /// Not fetched, or refused.
            case failed(DependencyFailure)
        }

        /// The line that declares it.
        public let dependency: ScriptDependency
        /// What happened.
        public let outcome: Outcome

        /// `fetched @require URL (87533 bytes)`, `failed @require URL: REASON`, ...
        public var description: String {
            switch outcome {
            case .fetched(_, let size, let from):
                "fetched \(dependency) (\(size) bytes\(from == dependency.declaredURL ? "" : ", from \(from)"))"
            case .alreadyCached:
                "cached  \(dependency)"
            case .failed(let failure):
                "failed  \(dependency): \(failure)"
            }
        }
    }

    /// Every declared file, in declaration order.
    public let entries: [Entry]

    /// The files that failed, with why.
    public var failures: [(dependency: ScriptDependency, failure: DependencyFailure)] {
        entries.compactMap { entry in
            if case .failed(let failure) = entry.outcome { return (entry.dependency, failure) }
            return nil
        }
    }

    /// Whether every declared file is now in the cache.
    public var isComplete: Bool { failures.isEmpty }
}
