import UserScripts

/// Why a script's values or files could not be exported or imported.
public enum ScriptTransferError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A companion file is not what export writes.
    case unreadable(path: String, reason: String)
    /// Reading or writing failed.
    case failed(String)

    /// What went wrong.
    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "\(path) cannot be read: \(reason)"
        case .failed(let reason): reason
        }
    }

    init(_ error: any Error) {
        switch error {
        case let failure as FileSystem.Failure: self = .failed(failure.description)
        case let error as ValueStoreError: self = .failed(error.description)
        case let error as DependencyError: self = .failed(error.description)
        default: self = .failed("\(error)")
        }
    }
}
