import Foundation

extension ScriptLibrary {
    /// Replaces a script's whole file with a new version (an update), keeping the old file in the
    /// library's `.trash/` folder.
    ///
    /// The new text is taken as it is, like an import: how PageScript reads it is worked out beside
    /// the file. Under the library lock, the old file is first copied into `.trash/` (atomically, like
    /// every write), then the new text replaces the file atomically. A writer killed at any
    /// moment leaves the old file or the new one in place, and the old one is never lost: at
    /// worst it is in both places. The file's name and the script's ID stay the same.
    ///
    /// - Parameters:
    ///   - stored: The script as read from this library; its fingerprint says what is replaced.
    ///   - text: The new file, byte for byte.
    ///   - overwritingChangesOnDisk: Replace the file even if another program changed it since
    ///     `stored` was read. Off by default: then the replacement throws
    ///     ``LibraryError/changedOnDisk(path:)`` and writes nothing.
    /// - Returns: The script as now stored, and where the old file went.
    ///
    /// ```swift
    /// let stored = try library.find("tidy")
    /// let (updated, previous) = try library.replace(stored, withText: newVersion)
    /// ```
    public func replace(
        _ stored: StoredScript,
        withText text: String,
        overwritingChangesOnDisk: Bool = false
    ) throws(LibraryError) -> (script: StoredScript, previousFile: URL) {
        let current = try script(id: stored.id)
        let path = current.file.path(percentEncoded: false)
        let name = FileSystem.baseName(of: path)
        let newBytes = Array(text.utf8)
        let previous = try locked { () throws(LibraryError) in
            try withLibraryLock { () throws(LibraryError) in
                let oldBytes: [UInt8]
                let status: FileSystem.Status
                do throws(FileSystem.Failure) {
                    (oldBytes, status) = try FileSystem.readFile(atPath: path)
                } catch {
                    if error.isNotFound { throw .missingOnDisk(path: path) }
                    throw LibraryError(error)
                }
                if !overwritingChangesOnDisk, FileFingerprint(bytes: oldBytes, status: status) != stored.fingerprint {
                    throw .changedOnDisk(path: path)
                }
                let destination = try freeTrashPath(for: name)
                _ = try write(oldBytes, to: destination) { () throws(LibraryError) in }
                _ = try write(newBytes, to: path) { () throws(LibraryError) in
                    let now: [UInt8]
                    do throws(FileSystem.Failure) {
                        now = try FileSystem.readFile(atPath: path).bytes
                    } catch {
                        throw LibraryError(error)
                    }
                    guard now == oldBytes else { throw .changedOnDisk(path: path) }
                }
                return destination
            }
        }
        try reloadIfChanged()
        return (try script(id: stored.id), URL(fileURLWithPath: previous))
    }
}
