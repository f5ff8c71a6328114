import Foundation
import SystemSupport

/// Where a one-run browser profile goes: in memory (`/dev/shm`) when the machine has room there,
/// else in the temporary folder.
///
/// A Chromium profile is a couple of hundred files even after one page. Removing them from a
/// disk-backed `/tmp` is slow, at the end of every cold `pagescript run`; from `/dev/shm` it
/// is quick. A profile that lives long (a batch session over thousands of pages, whose cache
/// grows) stays on disk.
///
/// ```swift
/// let profile = ThrowawayProfileFolder.path(named: "pagescript-chromium-profile-\(getpid())")
/// ```
///
/// Every scratch file or folder PageScript names with its process id (profiles, a browser's
/// temporary folder, driver logs) is swept by ``removeAbandoned(prefixes:)`` once that process
/// is gone, so that a killed run's leftovers do not pile up.
public enum ThrowawayProfileFolder {
    /// The free space `/dev/shm` must have to be used: far more than a one-page profile needs,
    /// so that a profile never competes with the machine's shared memory.
    static let minimumFreeMemoryBytes: UInt64 = 1 << 30

    /// A path for a folder called `name`, in `/dev/shm` when that is a writable folder with at
    /// least ``minimumFreeMemoryBytes`` free, else in `NSTemporaryDirectory()`.
    public static func path(named name: String) -> String {
        (inMemoryBase() ?? NSTemporaryDirectory()) + name
    }

    /// Removes the files and folders called one of `prefixes` followed by a process id and
    /// `-…` that a process no longer running left behind, in `/dev/shm` and in the temporary
    /// folder: a `pagescript` that was killed (SIGKILL, a closed terminal) cannot remove its own,
    /// and one in memory holds memory until it goes. One whose process id belongs to a running
    /// process is kept.
    public static func removeAbandoned(prefixes: [String]) {
        for base in ["/dev/shm/", NSTemporaryDirectory()] {
            for name in names(in: base, startingWithAnyOf: prefixes) {
                guard let prefix = prefixes.first(where: { name.hasPrefix($0) }),
                      let pid = Int32(name.dropFirst(prefix.count).prefix { $0 != "-" }), pid > 0,
                      kill(pid, 0) != 0, errno == ESRCH else { continue }
                try? FileManager.default.removeItem(atPath: base + name)
            }
        }
    }

    /// The names in the folder `base` that start with one of `prefixes`, read entry by entry: a
    /// temporary folder can hold tens of thousands of other names, which a cold run should
    /// neither keep in memory nor turn into strings.
    static func names(in base: String, startingWithAnyOf prefixes: [String]) -> [String] {
        guard let directory = opendir(base) else { return [] }
        defer { closedir(directory) }
        let wanted = prefixes.map { Array($0.utf8) }
        var found: [String] = []
        while let entry = readdir(directory) {
            // Only the name's own bytes are read: an entry can end before `d_name`'s full size.
            let name = withUnsafePointer(to: &entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: pointer.pointee)) { text -> String? in
                    let bytes = UnsafeRawBufferPointer(start: text, count: strlen(text))
                    guard wanted.contains(where: { bytes.count >= $0.count && bytes.prefix($0.count).elementsEqual($0) }) else { return nil }
                    return String(decoding: bytes, as: UTF8.self)
                }
            }
            if let name { found.append(name) }
        }
        return found
    }

    private static func inMemoryBase() -> String? {
        let base = "/dev/shm/"
        var info = statvfs()
        guard access(base, W_OK | X_OK) == 0, statvfs(base, &info) == 0 else { return nil }
        let free = UInt64(info.f_bavail) * UInt64(info.f_frsize)
        return free >= minimumFreeMemoryBytes ? base : nil
    }
}
