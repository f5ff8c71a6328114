#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("The script library needs a POSIX C library (Glibc, Musl or Darwin).")
#endif

/// Every operating-system file call the library makes, and the only file in the module that
/// imports the C library; the platform differences (`stat` field names, `F_FULLFSYNC`) stay here.
///
/// The library cannot use the package's `SystemSupport` target (`UserScripts` has no dependencies),
/// so it keeps this small, file-only layer of its own, which the GM API's host (`GMAPI`) shares
/// for the files it keeps in the same folder (values, fetched files): one crash-safe write, one
/// lock and one temporary-file protocol for everything under a library.
package enum FileSystem {
    /// What `stat` says about a file, reduced to what change detection and listing need.
    package struct Status: Hashable, Sendable {
        var size: Int64
        var modificationSeconds: Int64
        var modificationNanoseconds: Int64
        /// The inode change time: unlike the modification time, no tool can set it back.
        var changeSeconds: Int64
        var changeNanoseconds: Int64
        var inode: UInt64
        var mode: UInt32
        var isRegularFile: Bool
        var isDirectory: Bool
        var isSymbolicLink: Bool

        /// Stands for a file that could not be examined, so that the next look tries again.
        static let unreadable = Status(
            size: -1, modificationSeconds: 0, modificationNanoseconds: 0, changeSeconds: 0, changeNanoseconds: 0,
            inode: 0, mode: 0, isRegularFile: false, isDirectory: false, isSymbolicLink: false
        )
    }

    /// A failed call: what was attempted, on which path, and the `errno` it failed with.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        package let operation: String
        package let path: String
        package let code: Int32

        package var message: String { String(cString: strerror(code)) }
        package var isNotFound: Bool { code == ENOENT }
        package var description: String { "\(operation) \(path): \(message)" }

        /// The errors a user can act on, apart from the rest.
        enum Cause: Sendable {
            case notADirectory, permissionDenied, diskFull, readOnlyFileSystem, notFound, isADirectory, nameTooLong, other
        }

        var cause: Cause {
            switch code {
            case ENOTDIR: .notADirectory
            case EACCES, EPERM: .permissionDenied
            case ENOSPC, EDQUOT: .diskFull
            case EROFS: .readOnlyFileSystem
            case ENOENT: .notFound
            case EISDIR: .isADirectory
            case ENAMETOOLONG: .nameTooLong
            default: .other
            }
        }
    }

    /// The stages of an atomic write, reported to an observer so tests can stop a writer at each.
    package enum WriteStage: Sendable, Equatable {
        /// The temporary file exists and `bytes` of the new content have been written to it.
        case wroteBytes(Int)
        /// The temporary file's content is on disk.
        case synced
        /// The temporary file has replaced the target.
        case renamed
        /// The directory entry of the rename is on disk.
        case directorySynced
    }

    /// The size of the chunks written, so a large file is written (and can be interrupted) in parts.
    package static let chunkSize = 64 * 1024

    static var processID: Int32 { getpid() }

    /// `stat` (following symbolic links), or `nil` when nothing is there.
    static func status(atPath path: String) throws(Failure) -> Status? {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { return nil }
            throw Failure(operation: "stat", path: path, code: code)
        }
        return Status(info)
    }

    /// `lstat`: the link itself when `path` is a symbolic link.
    static func linkStatus(atPath path: String) throws(Failure) -> Status? {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { return nil }
            throw Failure(operation: "lstat", path: path, code: code)
        }
        return Status(info)
    }

    /// Reads a whole file, with the `fstat` of the same open file so content and status agree.
    static func readFile(atPath path: String) throws(Failure) -> (bytes: [UInt8], status: Status) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failure(operation: "open", path: path, code: errno) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw Failure(operation: "fstat", path: path, code: errno) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(info.st_size))
        var buffer = [UInt8](repeating: 0, count: chunkSize)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, chunkSize) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(operation: "read", path: path, code: errno)
            }
            if count == 0 { break }
            bytes.append(contentsOf: buffer[0..<count])
        }
        return (bytes, Status(info))
    }

    /// The entries of a directory (without `.` and `..`), each with its `stat`; entries that vanish
    /// while the directory is being read, or whose names are not UTF-8, are skipped.
    static func listDirectory(atPath path: String) throws(Failure) -> [(name: String, status: Status)] {
        guard let directory = opendir(path) else { throw Failure(operation: "opendir", path: path, code: errno) }
        defer { closedir(directory) }
        let descriptor = dirfd(directory)
        var entries: [(name: String, status: Status)] = []
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: pointer.pointee)) {
                    String(validatingCString: $0)
                }
            }
            guard let name, name != ".", name != ".." else { continue }
            var info = stat()
            guard fstatat(descriptor, name, &info, 0) == 0 else { continue }
            entries.append((name, Status(info)))
        }
        return entries
    }

    /// Reads a whole file; `nil` when it does not exist.
    package static func contents(atPath path: String) throws(Failure) -> [UInt8]? {
        do throws(Failure) {
            return try readFile(atPath: path).bytes
        } catch where error.code == ENOENT || error.code == ENOTDIR {
            return nil
        }
    }

    /// The names in a directory (without `.` and `..`), sorted; an absent directory has none.
    package static func names(inDirectory path: String) throws(Failure) -> [String] {
        do throws(Failure) {
            return try listDirectory(atPath: path).map(\.name).sorted()
        } catch where error.code == ENOENT || error.code == ENOTDIR {
            return []
        }
    }

    /// Removes the temporary files (``temporaryName(for:)``) that writers killed mid-write left in
    /// `directory`: those whose writer process is gone. A write in progress is never touched.
    package static func removeAbandonedTemporaryFiles(in directory: String) {
        guard let names = try? names(inDirectory: directory) else { return }
        for name in names {
            guard let writer = writerProcessID(inTemporaryName: name), writer != processID, !isProcessAlive(writer) else { continue }
            removeFile(atPath: directory + "/" + name)
        }
    }

    /// The mode of the library's own files: scripts can hold private URLs.
    package static let privateFileMode: mode_t = 0o600
    /// The mode of files written for others to read (an export), before the umask.
    package static let sharedFileMode: mode_t = 0o644
    /// The mode of folders made for others to read (an export's), before the umask.
    package static let sharedDirectoryMode: mode_t = 0o755

    /// `mkdir -p`, with `mode` for directories it creates: by default 0700, as the library's
    /// own, since scripts can hold private URLs.
    package static func createDirectory(atPath path: String, mode: mode_t = 0o700) throws(Failure) {
        if let existing = try status(atPath: path) {
            guard existing.isDirectory else { throw Failure(operation: "mkdir", path: path, code: ENOTDIR) }
            return
        }
        let parent = parentDirectory(of: path)
        if parent != path { try createDirectory(atPath: parent, mode: mode) }
        guard mkdir(path, mode) == 0 || errno == EEXIST else {
            throw Failure(operation: "mkdir", path: path, code: errno)
        }
    }

    /// Writes `bytes` to `path` so that, whatever happens, the path holds either its old content
    /// or the new content, whole: a temporary file in the same directory is written, flushed to
    /// disk, and renamed over the target, and then the directory itself is flushed.
    ///
    /// - Parameters:
    ///   - beforeReplacing: Runs just before the rename, when the new content is already safe on
    ///     disk; throwing from it cancels the write and removes the temporary file. The library
    ///     checks there that the target has not changed, to keep the race window to microseconds.
    ///   - observer: Told about each stage (tests stop a writer there).
    ///   - durable: Whether to flush the file and the directory to disk. A cache that is checked
    ///     when it is read (the library index) skips it: a torn one is noticed and rebuilt.
    ///   - newFileMode: The mode of a file that does not exist yet, before the umask (a file
    ///     that exists keeps its own).
    /// - Returns: The status of the new file.
    @discardableResult
    package static func writeAtomically(
        _ bytes: [UInt8],
        toPath path: String,
        beforeReplacing: () throws -> Void = {},
        observer: (@Sendable (WriteStage) -> Void)? = nil,
        durable: Bool = true,
        newFileMode: mode_t = privateFileMode
    ) throws -> Status {
        let target = try resolvedSymbolicLink(path)
        let directory = parentDirectory(of: target)
        let temporary = directory + "/" + temporaryName(for: baseName(of: target))
        let existingMode = try status(atPath: target).map { mode_t($0.mode) & 0o7777 }
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, existingMode ?? newFileMode)
        guard descriptor >= 0 else { throw Failure(operation: "create", path: temporary, code: errno) }
        var shouldRemoveTemporary = true
        defer { if shouldRemoveTemporary { unlink(temporary) } }
        do {
            defer { close(descriptor) }
            if let existingMode { fchmod(descriptor, existingMode) }
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
            if durable { try synchronize(descriptor, path: temporary) }
            observer?(.synced)
        }
        try beforeReplacing()
        guard rename(temporary, target) == 0 else { throw Failure(operation: "rename", path: target, code: errno) }
        shouldRemoveTemporary = false
        observer?(.renamed)
        if durable { try synchronizeDirectory(atPath: directory) }
        observer?(.directorySynced)
        guard let written = try status(atPath: target) else {
            throw Failure(operation: "stat", path: target, code: ENOENT)
        }
        return written
    }

    /// Moves a file to `destination`, which must not exist (checked by the caller under the
    /// library lock), and flushes both directories.
    static func move(_ source: String, to destination: String) throws(Failure) {
        guard rename(source, destination) == 0 else { throw Failure(operation: "rename", path: source, code: errno) }
        try synchronizeDirectory(atPath: parentDirectory(of: destination))
        try synchronizeDirectory(atPath: parentDirectory(of: source))
    }

    static func removeFile(atPath path: String) {
        unlink(path)
    }

    /// Runs `body` holding an exclusive `flock` on `path` (created if needed), so PageScript
    /// processes sharing a library take turns at read-check-write sequences.
    package static func withExclusiveLock<T>(onFile path: String, _ body: () throws -> T) throws -> T {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Failure(operation: "open", path: path, code: errno) }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw Failure(operation: "flock", path: path, code: errno) }
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }

    /// Whether a process with this ID exists (a temporary file of a dead writer can be removed).
    static func isProcessAlive(_ processID: Int32) -> Bool {
        kill(processID, 0) == 0 || errno == EPERM
    }

    /// Seconds since 1970, for the age of leftover temporary files.
    static var now: Int64 { Int64(time(nil)) }

    /// The name of a temporary file for `name`: hidden, and carrying the writer's process ID so
    /// a later reader can tell a dead writer's leftover from a write in progress.
    static func temporaryName(for name: String) -> String {
        ".\(name).\(processID).\(UInt32.random(in: 0...UInt32.max)).tmp"
    }

    /// The writer's process ID in a temporary file name made by ``temporaryName(for:)``.
    static func writerProcessID(inTemporaryName name: String) -> Int32? {
        guard name.hasPrefix("."), name.hasSuffix(".tmp") else { return nil }
        let parts = name.split(separator: ".")
        guard parts.count >= 4 else { return nil }
        return Int32(parts[parts.count - 3])
    }

    package static func parentDirectory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    package static func baseName(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    /// Saving through a symbolic link writes the file it points to, so the link survives.
    private static func resolvedSymbolicLink(_ path: String) throws(Failure) -> String {
        guard let link = try linkStatus(atPath: path), link.isSymbolicLink else { return path }
        guard let resolved = realpath(path, nil) else { throw Failure(operation: "realpath", path: path, code: errno) }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func synchronize(_ descriptor: Int32, path: String) throws(Failure) {
        #if canImport(Darwin)
        // On Apple platforms only F_FULLFSYNC asks the drive to write its cache; fsync does not.
        if fcntl(descriptor, F_FULLFSYNC) == 0 { return }
        #endif
        guard fsync(descriptor) == 0 else { throw Failure(operation: "fsync", path: path, code: errno) }
    }

    private static func synchronizeDirectory(atPath path: String) throws(Failure) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failure(operation: "open", path: path, code: errno) }
        defer { close(descriptor) }
        try synchronize(descriptor, path: path)
    }
}

extension FileSystem.Status {
    fileprivate init(_ info: stat) {
        size = Int64(info.st_size)
        #if canImport(Darwin)
        modificationSeconds = Int64(info.st_mtimespec.tv_sec)
        modificationNanoseconds = Int64(info.st_mtimespec.tv_nsec)
        changeSeconds = Int64(info.st_ctimespec.tv_sec)
        changeNanoseconds = Int64(info.st_ctimespec.tv_nsec)
        #else
        modificationSeconds = Int64(info.st_mtim.tv_sec)
        modificationNanoseconds = Int64(info.st_mtim.tv_nsec)
        changeSeconds = Int64(info.st_ctim.tv_sec)
        changeNanoseconds = Int64(info.st_ctim.tv_nsec)
        #endif
        inode = UInt64(info.st_ino)
        mode = UInt32(info.st_mode)
        let type = UInt32(info.st_mode) & UInt32(S_IFMT)
        isRegularFile = type == UInt32(S_IFREG)
        isDirectory = type == UInt32(S_IFDIR)
        isSymbolicLink = type == UInt32(S_IFLNK)
    }
}
