import Foundation
import SystemSupport

/// The folder `GM_download` saves into (`--downloads DIR`, else the XDG download folder), and the
/// one way a file gets there: atomically, never leaving the folder, never replacing a file unless
/// the script asked for `overwrite`.
///
/// **Atomic.** The bytes go to a hidden temporary file beside the final name, are flushed to disk,
/// and only then get the final name, so a reader never sees half a file. A download writes that
/// file as its body arrives (``startFile(for:)``, then ``place(_:conflict:)``); one that fails
/// part-way removes it (``PartialFile/discard()``). Without `overwrite` the final name is taken
/// with `link`, which fails when the name exists (no window between a check and the rename), and
/// the next `name (N).ext` is tried. With `overwrite`, `rename` replaces the old file (a symbolic
/// link there is replaced itself, never followed).
///
/// **Inside.** Subfolders of a ``DownloadName`` are made as needed; one that exists must be a
/// real folder, not a symbolic link, so a name can never lead out of the folder.
///
/// ```swift
/// let folder = DownloadFolder(directory: DownloadFolder.standardDirectory())
/// let saved = try folder.save(bytes, as: DownloadName(requested: "notes/a.txt", url: nil), conflict: .uniquify)
/// saved.path  // "/home/me/Downloads/notes/a.txt", or ".../notes/a (1).txt"
/// ```
public struct DownloadFolder: Sendable, Hashable {
    /// The folder.
    public let directory: URL

    /// A folder (made on the first download when it does not exist).
    public init(directory: URL) {
        self.directory = directory.standardizedFileURL
    }

    /// Where a saved file went.
    public struct SavedFile: Sendable, Hashable {
        /// Its absolute path.
        public let path: String
        /// Its name relative to the folder (`notes/a (1).txt`).
        public let relativePath: String
        /// Whether it replaced a file of that name (`overwrite`).
        public let replaced: Bool
        /// Whether it got another name because one existed (`uniquify`).
        public let uniquified: Bool
    }

    /// Why a file could not be saved.
    public struct SaveFailure: Error, Sendable, Hashable, CustomStringConvertible {
        public let description: String
    }

    /// The most `name (N).ext` names tried before giving up.
    static let maximumUniqueTries = 1000

    /// The XDG download folder: `XDG_DOWNLOAD_DIR` of `$XDG_CONFIG_HOME/user-dirs.dirs` (else
    /// `~/.config/user-dirs.dirs`) when it names one other than the home folder, else `~/Downloads`.
    public static func standardDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        let configHome = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.config"
        if let text = try? String(contentsOfFile: URL(fileURLWithPath: configHome).appendingPathComponent("user-dirs.dirs").path, encoding: .utf8),
           let path = downloadDirectory(inUserDirs: text, home: home) {
            return URL(fileURLWithPath: path, isDirectory: true).standardizedFileURL
        }
        return URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent("Downloads", isDirectory: true).standardizedFileURL
    }

    /// `XDG_DOWNLOAD_DIR="$HOME/Downloads"` read as `xdg-user-dirs` writes it (a path that starts
    /// with `$HOME/` or `/`); `nil` when absent, unreadable, or the home folder itself.
    static func downloadDirectory(inUserDirs text: String, home: String) -> String? {
        for line in text.split(whereSeparator: \.isNewline) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("XDG_DOWNLOAD_DIR=") else { continue }
            var value = String(trimmed.dropFirst("XDG_DOWNLOAD_DIR=".count))
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
            if value.hasPrefix("$HOME") { value = home + "/" + value.dropFirst("$HOME".count) }
            guard value.hasPrefix("/") else { return nil }
            let standardized = URL(fileURLWithPath: value).standardizedFileURL.path
            return standardized == URL(fileURLWithPath: home).standardizedFileURL.path ? nil : standardized
        }
        return nil
    }

    /// Saves `bytes` as `name` (see the type's discussion).
    public func save(_ bytes: [UInt8], as name: DownloadName, conflict: DownloadConflictAction) throws(SaveFailure) -> SavedFile {
        var file = try startFile(for: name)
        let written = bytes.withUnsafeBytes { buffer in Result { () throws(SaveFailure) in try file.write(buffer) } }
        if case .failure(let failure) = written {
            file.discard()
            throw failure
        }
        return try place(file, conflict: conflict)
    }

    /// Makes the hidden file a download of `name` is written into, beside its final name (the
    /// subfolders made as for ``save(_:as:conflict:)``), for ``place(_:conflict:)`` to name when
    /// it is whole, or ``PartialFile/discard()`` to remove.
    func startFile(for name: DownloadName) throws(SaveFailure) -> PartialFile {
        let root = directory.path
        try Self.makeFolder(root, mayBeLink: true)
        var folder = root
        for segment in name.segments.dropLast() {
            folder += "/" + segment
            try Self.makeFolder(folder, mayBeLink: false)
        }
        let fileName = name.segments.last ?? "download"
        // Hidden, beside the final name, and short enough for any name.
        let temporary = folder + "/.\(String(decoding: fileName.utf8.prefix(100), as: UTF8.self)).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).part"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard descriptor >= 0 else { throw Self.failure("create", temporary) }
        return PartialFile(folder: folder, fileName: fileName, prefix: name.segments.dropLast().map { $0 + "/" }.joined(),
                           path: temporary, descriptor: descriptor)
    }

    /// Gives a whole ``PartialFile`` its final name (see the type's discussion): flushed to disk,
    /// then linked or renamed into place. The partial file is gone afterwards, whatever happens.
    func place(_ file: PartialFile, conflict: DownloadConflictAction) throws(SaveFailure) -> SavedFile {
        guard fsync(file.descriptor) == 0 else {
            let failed = Self.failure("fsync", file.path)
            file.discard()
            throw failed
        }
        close(file.descriptor)
        let temporary = file.path
        var keepTemporary = false
        defer { if !keepTemporary { unlink(temporary) } }
        let folder = file.folder
        let fileName = file.fileName
        if conflict == .overwrite {
            let target = folder + "/" + fileName
            let existed = Self.exists(target)
            guard rename(temporary, target) == 0 else { throw Self.placingFailure("rename", target, partial: temporary) }
            keepTemporary = true
            Self.synchronizeFolder(folder)
            return SavedFile(path: target, relativePath: file.prefix + fileName, replaced: existed, uniquified: false)
        }
        let parts = FileNameParts(fileName)
        for attempt in 0...Self.maximumUniqueTries {
            let candidate = attempt == 0 ? fileName : DownloadName.shortened("\(parts.stem) (\(attempt))\(parts.extension)")
            let target = folder + "/" + candidate
            if link(temporary, target) == 0 || Self.claimWithoutLinks(temporary, target) {
                Self.synchronizeFolder(folder)
                return SavedFile(path: target, relativePath: file.prefix + candidate, replaced: false, uniquified: attempt > 0)
            }
            guard errno == EEXIST else { throw Self.placingFailure("link", target, partial: temporary) }
        }
        throw SaveFailure(description: "\(folder) already has \(fileName) and \(Self.maximumUniqueTries) numbered names like it")
    }

    /// A download's file while it is written: hidden, open, beside the name it will get.
    struct PartialFile: Sendable {
        /// The folder it is in, and the final name's.
        let folder: String
        /// The final name's last segment.
        let fileName: String
        /// The final name's subfolders, each followed by `/`.
        let prefix: String
        /// Its own path.
        let path: String
        let descriptor: Int32
        /// How many bytes were written.
        private(set) var count = 0

        init(folder: String, fileName: String, prefix: String, path: String, descriptor: Int32) {
            self.folder = folder
            self.fileName = fileName
            self.prefix = prefix
            self.path = path
            self.descriptor = descriptor
        }

        /// Appends `bytes`. Fails when the disk refuses them, or when the file is no longer in
        /// the folder (removed, or its folder with it), which a write alone would not notice.
        mutating func write(_ bytes: UnsafeRawBufferPointer) throws(SaveFailure) {
            var info = stat()
            if fstat(descriptor, &info) == 0, info.st_nlink == 0 {
                throw SaveFailure(description: "\(path) was removed while the download was written to it (was the folder deleted?)")
            }
            guard let base = bytes.baseAddress else { return }
            var written = 0
            while written < bytes.count {
                let result = Foundation.write(descriptor, base + written, bytes.count - written)
                if result < 0 {
                    if errno == EINTR { continue }
                    throw DownloadFolder.failure("write", path)
                }
                written += result
            }
            count += bytes.count
        }

        /// Closes and removes the file: the download failed or was stopped.
        func discard() {
            close(descriptor)
            unlink(path)
        }
    }

    private static func makeFolder(_ path: String, mayBeLink: Bool) throws(SaveFailure) {
        var info = stat()
        if (mayBeLink ? stat(path, &info) : lstat(path, &info)) == 0 {
            guard UInt32(info.st_mode) & UInt32(S_IFMT) == UInt32(S_IFDIR) else {
                throw SaveFailure(description: "\(path) is not a folder" + (mayBeLink ? "" : " (a name's subfolders must be real folders inside the downloads folder)"))
            }
            return
        }
        if mayBeLink {
            do {
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            } catch {
                throw SaveFailure(description: "the downloads folder \(path) cannot be made: \(error.localizedDescription)")
            }
        } else if mkdir(path, 0o755) != 0, errno != EEXIST {
            throw failure("mkdir", path)
        }
    }

    /// On a file system without hard links: the name is claimed with an empty file made only if
    /// none exists, then the new content renamed over that claim. `errno` is `EEXIST` when the
    /// name was taken.
    private static func claimWithoutLinks(_ temporary: String, _ target: String) -> Bool {
        guard [EPERM, ENOTSUP, EOPNOTSUPP, EMLINK].contains(errno) else { return false }
        let claim = open(target, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard claim >= 0 else { return false }
        close(claim)
        guard rename(temporary, target) == 0 else {
            let code = errno
            unlink(target)
            errno = code
            return false
        }
        return true
    }

    private static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    private static func synchronizeFolder(_ path: String) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }

    static func failure(_ operation: String, _ path: String) -> SaveFailure {
        SaveFailure(description: "\(operation) \(path): \(errnoDescription(errno))")
    }

    /// The failure to give the partial file its final name: the partial file gone (its folder
    /// removed) said as such.
    private static func placingFailure(_ operation: String, _ target: String, partial: String) -> SaveFailure {
        let code = errno
        guard code == ENOENT, !exists(partial) else {
            errno = code
            return failure(operation, target)
        }
        return SaveFailure(description: "\(partial) was removed before it got its name (was the folder deleted?)")
    }
}

extension DownloadFolder.PartialFile: ResponseBody {
    mutating func append(_ bytes: UnsafeRawBufferPointer) throws(HTTPTransport.Failure) {
        do throws(DownloadFolder.SaveFailure) {
            try write(bytes)
        } catch {
            throw .unwritable(error.description)
        }
    }
}
