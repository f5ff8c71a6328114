import Foundation

/// A snapshot of the machine's process tree from `/proc`, read once: for finding every process
/// below some (a batch slot's browser, what a killed `pagescript` left) and reading their memory.
/// Empty where `/proc` does not exist.
public struct ProcessTable: Sendable {
    private var childrenByParent: [pid_t: [pid_t]] = [:]

    /// Reads every process's parent.
    public static func snapshot() -> ProcessTable {
        var table = ProcessTable()
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return table }
        for entry in entries {
            guard let pid = pid_t(entry), let parent = parent(of: pid) else { continue }
            table.childrenByParent[parent, default: []].append(pid)
        }
        return table
    }

    /// Every process below `root`, parents first.
    public func descendants(of root: pid_t) -> [pid_t] {
        var result: [pid_t] = []
        var queue = childrenByParent[root] ?? []
        var next = 0
        while next < queue.count {
            let pid = queue[next]
            next += 1
            result.append(pid)
            queue.append(contentsOf: childrenByParent[pid] ?? [])
        }
        return result
    }

    /// The process's command line, arguments joined by spaces; empty when it is gone.
    public static func commandLine(of pid: pid_t) -> String {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return "" }
        return data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }.joined(separator: " ")
    }

    /// The process's resident memory in bytes (`/proc/PID/statm`); `nil` when it is gone.
    public static func residentBytes(of pid: pid_t) -> UInt64? {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/statm") else { return nil }
        let fields = String(decoding: data, as: UTF8.self).split(separator: " ")
        guard fields.count > 1, let pages = UInt64(fields[1]) else { return nil }
        return pages * UInt64(sysconf(Int32(_SC_PAGESIZE)))
    }

    private static func parent(of pid: pid_t) -> pid_t? {
        ProcessStat.parentID(of: pid)
    }
}
