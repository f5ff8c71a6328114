import Foundation

/// What a script's values file is on disk at one moment: its inode, size and modification time.
///
/// Every write replaces the file whole (a new file renamed over the old one), so a write by any
/// process, this one or another `pagescript` on the same library, gives a new stamp; comparing
/// stamps tells whether the values changed without reading them
/// (``ScriptValueStore/fileStamp(of:)``).
///
/// ```swift
/// let before = store.fileStamp(of: id)
/// // … later …
/// if store.fileStamp(of: id) != before { let now = try store.values(of: id) }
/// ```
public struct ValueFileStamp: Sendable, Hashable {
    let inode: UInt64
    let size: Int64
    let seconds: Int
    let nanoseconds: Int

    /// The stamp of the file at `path`; `nil` when there is none.
    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        seconds = Int(info.st_mtim.tv_sec)
        nanoseconds = Int(info.st_mtim.tv_nsec)
    }
}
