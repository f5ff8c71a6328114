import SystemSupport

/// The file calls GMAPI makes inside the library folder, with the same guarantees as the
/// library's own writes: a file is replaced atomically (temporary file in the same folder,
/// flushed, renamed over the target, folder flushed), so a writer killed at any moment leaves
/// the old content or the new, whole.
///
/// `UserScripts` keeps its own file layer private, so GMAPI has this one, built on
/// `SystemSupport`'s C library import.
enum Disk {
    /// A failed call: what was attempted, on which path, and the `errno` it failed with.
    struct Failure: Error, Sendable, Equatable {
        let operation: String
        let path: String
        let code: Int32

        var message: String { errnoDescription(code) }
        var isNotFound: Bool { code == ENOENT || code == ENOTDIR }
        var description: String { "\(operation) \(path): \(message)" }
    }

    /// The stages of an atomic write, reported so that tests can kill a writer at each one.
    enum WriteStage: Sendable, Equatable {
        /// The temporary file exists and this many bytes of the new content are in it.
        case wroteBytes(Int)
        /// The temporary file's content is on disk.
        case synced
        /// The temporary file has replaced the target.
        case renamed
        /// The folder entry of the rename is on disk.
        case directorySynced
    }

    /// Writes go out in chunks of this size, so that a large file can be interrupted part-way.
    static let chunkSize = 64 * 1024

    /// Reads a whole file; `nil` when it does not exist.
    static func contents(of path: String) throws(Failure) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let failure = Failure(operation: "open", path: path, code: errno)
            if failure.isNotFound { return nil }
            throw failure
        }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: chunkSize)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, chunkSize) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(operation: "read", path: path, code: errno)
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: buffer[0..<count])
        }
    }

    /// `mkdir -p` with mode 0700 for what it creates, as the library does: values can be private.
    static func createDirectory(_ path: String) throws(Failure) {
        var info = stat()
        if stat(path, &info) == 0 {
            guard (UInt32(info.st_mode) & UInt32(S_IFMT)) == UInt32(S_IFDIR) else {
                throw Failure(operation: "mkdir", path: path, code: ENOTDIR)
            }
            return
        }
        let parent = parentDirectory(of: path)
        if parent != path { try createDirectory(parent) }
        guard mkdir(path, 0o700) == 0 || errno == EEXIST else {
            throw Failure(operation: "mkdir", path: path, code: errno)
        }
    }

    /// The names in a folder (without `.` and `..`); an absent folder has none.
    static func list(_ path: String) throws(Failure) -> [String] {
        guard let directory = opendir(path) else {
            let failure = Failure(operation: "opendir", path: path, code: errno)
            if failure.isNotFound { return [] }
            throw failure
        }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: pointer.pointee)) {
                    String(validatingCString: $0)
                }
            }
            guard let name, name != ".", name != ".." else { continue }
            names.append(name)
        }
        return names.sorted()
    }

    /// Writes `bytes` to `path` so that the path holds either its old content or the new one,
    /// whole, whatever happens: a temporary file in the same folder is written and flushed, then
    /// renamed over the target, then the folder is flushed.
    ///
    /// - Parameter observer: Told about each stage (tests stop a writer there).
    static func writeAtomically(
        _ bytes: [UInt8],
        to path: String,
        observer: (@Sendable (WriteStage) -> Void)? = nil
    ) throws(Failure) {
        let directory = parentDirectory(of: path)
        let temporary = directory + "/" + temporaryName(for: baseName(of: path))
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Failure(operation: "create", path: temporary, code: errno) }
        var removeTemporary = true
        defer { if removeTemporary { unlink(temporary) } }
        do {
            defer { close(descriptor) }
            var written = 0
            observer?(.wroteBytes(0))
            while written < bytes.count {
                let count = min(chunkSize, bytes.count - written)
                let result = bytes.withUnsafeBytes { buffer in
                    buffer.baseAddress.map { write(descriptor, $0 + written, count) } ?? 0
                }
                if result < 0 {
                    if errno == EINTR { continue }
                    throw Failure(operation: "write", path: temporary, code: errno)
                }
                written += result
                observer?(.wroteBytes(written))
            }
            try synchronize(descriptor, path: temporary)
            observer?(.synced)
        }
        guard rename(temporary, path) == 0 else { throw Failure(operation: "rename", path: path, code: errno) }
        removeTemporary = false
        observer?(.renamed)
        try synchronizeDirectory(directory)
        observer?(.directorySynced)
    }

    /// Runs `body` holding an exclusive `flock` on `path` (created if needed). Locks taken through
    /// different open files exclude each other even inside one process.
    static func withExclusiveLock<T>(on path: String, _ body: () throws -> T) throws -> T {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Failure(operation: "open", path: path, code: errno) }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw Failure(operation: "flock", path: path, code: errno) }
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }

    /// Removes the temporary files that writers killed mid-write left in `directory`: those whose
    /// writer process is gone. A write in progress is never touched.
    static func removeAbandonedTemporaryFiles(in directory: String) {
        guard let names = try? list(directory) else { return }
        for name in names {
            guard let writer = writerProcessID(inTemporaryName: name), writer != getpid(),
                  kill(writer, 0) != 0, errno == ESRCH else { continue }
            unlink(directory + "/" + name)
        }
    }

    /// A hidden temporary name for `name` that carries the writer's process ID, so that a later
    /// reader can tell a dead writer's leftover from a write in progress.
    static func temporaryName(for name: String) -> String {
        ".\(name).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
    }

    static func writerProcessID(inTemporaryName name: String) -> Int32? {
        guard name.hasPrefix("."), name.hasSuffix(".tmp") else { return nil }
        let parts = name.split(separator: ".")
        guard parts.count >= 4 else { return nil }
        return Int32(parts[parts.count - 3])
    }

    static func parentDirectory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    static func baseName(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    private static func synchronize(_ descriptor: Int32, path: String) throws(Failure) {
        #if canImport(Darwin)
        // On Apple platforms only F_FULLFSYNC asks the drive to write its cache; fsync does not.
        if fcntl(descriptor, F_FULLFSYNC) == 0 { return }
        #endif
        guard fsync(descriptor) == 0 else { throw Failure(operation: "fsync", path: path, code: errno) }
    }

    private static func synchronizeDirectory(_ path: String) throws(Failure) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failure(operation: "open", path: path, code: errno) }
        defer { close(descriptor) }
        try synchronize(descriptor, path: path)
    }
}
