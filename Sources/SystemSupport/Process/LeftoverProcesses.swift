import Foundation

/// Finds and stops what a `pagescript` killed with SIGKILL left running.
///
/// Nothing runs in a process after SIGKILL, so its X server, drivers and browsers outlive it.
/// Every command that starts browsers therefore marks its children: ``markChildren(as:)`` puts
/// its own identity (process ID and start time, so that a reused ID is not mistaken for it) in an
/// environment variable every child inherits. ``stopOrphans(of:patience:)`` stops every process
/// carrying such a mark whose owner is gone, and every process below those. A `pagescript` that
/// still runs keeps its own. Batches and the other commands mark with a variable each, and each
/// sweeps its own kind: the next `batch` stops what a killed batch left, the next `run`, `edit`
/// or `browse` what one of those left.
///
/// Only the executable calls these: they change this process's environment and signal processes
/// outside it. Linux only (`/proc`); elsewhere they do nothing.
///
/// ```swift
/// LeftoverProcesses.stopOrphans(of: .batch)
/// LeftoverProcesses.markChildren(as: .batch)
/// ```
public enum LeftoverProcesses {
    /// Which commands a mark belongs to: the variable that holds the owner's identity, `PID:START`.
    public enum Owner: String, Sendable, CaseIterable {
        /// `pagescript batch`.
        case batch = "PAGESCRIPT_BATCH_OWNER"
        /// `pagescript run`, `edit` and `browse`.
        case command = "PAGESCRIPT_OWNER"
    }

    /// Marks every process this one starts from now on as this process's.
    public static func markChildren(as owner: Owner) {
        guard let start = startTime(of: getpid()) else { return }
        setenv(owner.rawValue, "\(getpid()):\(start)", 1)
    }

    /// Stops (SIGKILL) every process marked as `owner`'s by a `pagescript` that no longer runs,
    /// and every process below those (a browser's helpers rewrite their environment and carry no
    /// mark), and waits (up to `patience` seconds) until they have ended: a killed browser that
    /// still runs for a moment could write into the profile folder the next command is removing.
    /// Returns how many.
    @discardableResult
    public static func stopOrphans(of owner: Owner, patience: Double = 2) -> Int {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return 0 }
        let prefix = Array("\(owner.rawValue)=".utf8)
        var table: ProcessTable?
        var killed: [pid_t] = []
        for entry in entries {
            guard let pid = pid_t(entry), pid != getpid(),
                  let environment = FileManager.default.contents(atPath: "/proc/\(entry)/environ") else { continue }
            guard let mark = environment.split(separator: 0).first(where: { $0.starts(with: prefix) }) else { continue }
            let identity = String(decoding: mark.dropFirst(prefix.count), as: UTF8.self).split(separator: ":")
            guard identity.count == 2, let ownerID = pid_t(identity[0]), let ownerStart = UInt64(identity[1]) else { continue }
            if ownerID == getpid() || startTime(of: ownerID) == ownerStart { continue }
            // The tree is read once, before anything is killed, while the parent links hold.
            let tree = table ?? ProcessTable.snapshot()
            table = tree
            for member in [pid] + tree.descendants(of: pid) where !killed.contains(member) {
                if kill(member, SIGKILL) == 0 { killed.append(member) }
            }
        }
        let deadline = Date().addingTimeInterval(patience)
        while Date() < deadline, killed.contains(where: isRunning) {
            usleep(2_000)
        }
        return killed.count
    }

    /// Whether `pid` still runs: it exists and is not a zombie waiting for its parent.
    static func isRunning(_ pid: pid_t) -> Bool {
        guard let state = ProcessStat.fields(of: pid)?.first else { return false }
        return state != "Z" && state != "X"
    }

    /// The process's start time in clock ticks since boot (`/proc/PID/stat`, field 22).
    static func startTime(of pid: pid_t) -> UInt64? {
        guard let fields = ProcessStat.fields(of: pid), fields.count > 19 else { return nil }
        return UInt64(fields[19])
    }
}
