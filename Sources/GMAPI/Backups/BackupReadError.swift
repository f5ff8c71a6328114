/// Why a backup cannot be read: its archive is refused, or a part of it is not what its manager
/// writes. Either refuses the whole backup, before anything is written.
enum BackupReadError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The zip archive itself.
    case archive(ZipError)
    /// An entry that is not what the manager writes there.
    case unreadablePart(name: String, reason: String)

    /// What is wrong, as a clause for the terminal.
    var description: String {
        switch self {
        case .archive(let error): error.description
        case .unreadablePart(let name, let reason): "its entry \(ZipError.quoted(name)) cannot be read: \(reason)"
        }
    }
}
