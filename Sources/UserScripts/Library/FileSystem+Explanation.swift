extension FileSystem.Failure {
    /// What went wrong, in the user's terms: which path, what it is or lacks, and what to do,
    /// rather than the system call and its errno text (`mkdir /x: Not a directory`).
    var explanation: String {
        switch cause {
        case .notADirectory:
            if let file = Self.firstFileAmongParents(of: path) {
                let subject = file == path ? "" : "\(path) cannot be used: "
                return "\(subject)\(file) is a file, not a folder; choose another library folder with --library"
            }
            return "\(path) cannot be used: a part of it is a file, not a folder"
        case .permissionDenied:
            return "PageScript is not allowed to \(verb) \(path) (permission denied); check its owner and permissions, or choose another library folder with --library"
        case .diskFull:
            return "the disk holding \(path) is full; nothing was changed"
        case .readOnlyFileSystem:
            return "\(path) is on a read-only file system; nothing was changed"
        case .notFound:
            return "\(path) does not exist"
        case .isADirectory:
            return "\(path) is a folder where a file was expected"
        case .nameTooLong:
            return "the path \(path) is too long for the file system"
        case .other:
            return "cannot \(verb) \(path): \(message)"
        }
    }

    /// The system call, as something done to a path.
    private var verb: String {
        switch operation {
        case "mkdir": "create the folder"
        case "open", "create": "open"
        case "write": "write"
        case "rename": "replace"
        case "read": "read"
        case "opendir": "list"
        case "flock": "lock"
        case "fsync": "save"
        case "stat", "lstat", "fstat", "realpath": "look at"
        default: operation
        }
    }

    /// The first of `path` and its ancestors that exists and is not a folder.
    private static func firstFileAmongParents(of path: String) -> String? {
        guard path.hasPrefix("/") else { return nil }
        var prefix = ""
        for component in path.split(separator: "/") {
            prefix += "/" + component
            guard let status = try? FileSystem.status(atPath: prefix) else { return nil }
            if !status.isDirectory { return prefix }
        }
        return nil
    }
}
