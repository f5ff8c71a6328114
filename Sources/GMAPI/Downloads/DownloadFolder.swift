import Foundation
import SystemSupport

/// The folder `GM_download` saves into (`--downloads DIR`, else the XDG download folder), and the
/// one way a file gets there: atomically, never leaving the folder, never replacing a file unless
/// the script asked for `overwrite`.
///
/// **Atomic.** The bytes go to a hidden temporary file beside the final name, are flushed to disk,
/// and only then get the final name, so a reader never sees half a file. Without `overwrite` the
/// final name is taken with `link`, which fails when the name exists (no window between a check
/// and the rename), and the next `name (N).ext` is tried. With `overwrite`, `rename` replaces the
/// old file (a symbolic link there is replaced itself, never followed).
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
        try Self.writeFile(bytes, to: temporary)
        var keepTemporary = false
        defer { if !keepTemporary { unlink(temporary) } }
        let prefix = name.segments.dropLast().map { $0 + "/" }.joined()
        if conflict == .overwrite {
            let target = folder + "/" + fileName
            let existed = Self.exists(target)
            guard rename(temporary, target) == 0 else { throw Self.failure("rename", target) }
            keepTemporary = true
            Self.synchronizeFolder(folder)
            return SavedFile(path: target, relativePath: prefix + fileName, replaced: existed, uniquified: false)
        }
        let parts = FileNameParts(fileName)
        for attempt in 0...Self.maximumUniqueTries {
            let candidate = attempt == 0 ? fileName : DownloadName.shortened("\(parts.stem) (\(attempt))\(parts.extension)")
            let target = folder + "/" + candidate
            if link(temporary, target) == 0 || Self.claimWithoutLinks(temporary, target) {
                Self.synchronizeFolder(folder)
                return SavedFile(path: target, relativePath: prefix + candidate, replaced: false, uniquified: attempt > 0)
            }
            guard errno == EEXIST else { throw Self.failure("link", target) }
        }
        throw SaveFailure(description: "\(folder) already has \(fileName) and \(Self.maximumUniqueTries) numbered names like it")
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

    private static func writeFile(_ bytes: [UInt8], to path: String) throws(SaveFailure) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard descriptor >= 0 else { throw failure("create", path) }
        defer { close(descriptor) }
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { buffer in
                buffer.baseAddress.map { write(descriptor, $0 + written, bytes.count - written) } ?? 0
            }
            if result < 0 {
                if errno == EINTR { continue }
                let failed = failure("write", path)
                unlink(path)
                throw failed
            }
            written += result
        }
        guard fsync(descriptor) == 0 else {
            let failed = failure("fsync", path)
            unlink(path)
            throw failed
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

    private static func failure(_ operation: String, _ path: String) -> SaveFailure {
        SaveFailure(description: "\(operation) \(path): \(errnoDescription(errno))")
    }
}
