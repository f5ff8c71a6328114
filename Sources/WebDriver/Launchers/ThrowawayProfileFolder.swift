import Foundation
import SystemSupport

/// Where a one-run browser profile goes: in memory (`/dev/shm`) when the machine has room there,
/// else in the temporary folder.
///
/// A Chromium profile is a couple of hundred files even after one page. Removing them from a
/// disk-backed `/tmp` took 140-440 ms on the bench machine, at the end of every cold
/// `pagescript run`; from `/dev/shm` it takes about 12 ms. A profile that lives long (a batch
/// session over thousands of pages, whose cache grows) stays on disk.
///
/// ```swift
/// let profile = ThrowawayProfileFolder.path(named: "pagescript-chromium-profile-\(getpid())")
/// ```
enum ThrowawayProfileFolder {
    /// The free space `/dev/shm` must have to be used: far more than a one-page profile needs,
    /// so that a profile never competes with the machine's shared memory.
    static let minimumFreeMemoryBytes: UInt64 = 1 << 30

    /// A path for a folder called `name`, in `/dev/shm` when that is a writable folder with at
    /// least ``minimumFreeMemoryBytes`` free, else in `NSTemporaryDirectory()`.
    static func path(named name: String) -> String {
        (inMemoryBase() ?? NSTemporaryDirectory()) + name
    }

    /// Removes the folders called `prefix` followed by a process id and `-…` that a process no
    /// longer running left behind, in `/dev/shm` and in the temporary folder: a `pagescript` that
    /// was killed (SIGKILL, a closed terminal) cannot remove its own, and one in memory holds
    /// memory until it goes. A folder whose process id belongs to a running process is kept.
    static func removeAbandoned(prefix: String) {
        for base in ["/dev/shm/", NSTemporaryDirectory()] {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: base) else { continue }
            for name in names where name.hasPrefix(prefix) {
                guard let pid = Int32(name.dropFirst(prefix.count).prefix { $0 != "-" }), pid > 0,
                      kill(pid, 0) != 0, errno == ESRCH else { continue }
                try? FileManager.default.removeItem(atPath: base + name)
            }
        }
    }

    private static func inMemoryBase() -> String? {
        let base = "/dev/shm/"
        var info = statvfs()
        guard access(base, W_OK | X_OK) == 0, statvfs(base, &info) == 0 else { return nil }
        let free = UInt64(info.f_bavail) * UInt64(info.f_frsize)
        return free >= minimumFreeMemoryBytes ? base : nil
    }
}
