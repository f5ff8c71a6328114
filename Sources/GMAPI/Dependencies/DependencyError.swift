import UserScripts

/// Why the cache of `@require`/`@resource` files, or a script's record of them, could not be
/// read or written.
public enum DependencyError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A file-system call failed.
    case fileSystem(operation: String, path: String, reason: String)
    /// A script's record is not what PageScript writes; nothing was changed.
    case unreadableRecord(path: String, reason: String)

    /// What went wrong and what to do about it.
    public var description: String {
        switch self {
        case .fileSystem(let operation, let path, let reason):
            "\(operation) \(path): \(reason)"
        case .unreadableRecord(let path, let reason):
            "\(path) cannot be read (\(reason)); remove it and run `pagescript scripts update` to fetch the files again"
        }
    }

    init(_ failure: FileSystem.Failure) {
        self = .fileSystem(operation: failure.operation, path: failure.path, reason: failure.message)
    }
}
