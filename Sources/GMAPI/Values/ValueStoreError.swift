import UserScripts

/// Why reading or writing a script's values failed. Every case says what to do in ``description``.
public enum ValueStoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A file-system call failed (a full disk, a folder without permission).
    case fileSystem(operation: String, path: String, reason: String)
    /// The values file is not what PageScript writes (edited by hand, or by a newer PageScript);
    /// nothing was changed.
    case unreadableValues(path: String, reason: String)
    /// A change from the page, or from the command line, is not of the documented form.
    case invalidChange(String)

    /// What went wrong and what to do about it.
    public var description: String {
        switch self {
        case .fileSystem(let operation, let path, let reason):
            "\(operation) \(path): \(reason)"
        case .unreadableValues(let path, let reason):
            "the values file \(path) cannot be read (\(reason)); nothing was changed. Fix the file or move it away to start with no values."
        case .invalidChange(let reason):
            "invalid value change: \(reason)"
        }
    }

    init(_ failure: FileSystem.Failure) {
        self = .fileSystem(operation: failure.operation, path: failure.path, reason: failure.message)
    }
}
