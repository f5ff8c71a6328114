import Foundation

/// The processes below a process, found from `/proc` on Linux.
///
/// Drivers do not always keep their browser in their own process group (chromedriver starts
/// Chromium in a new one), so stopping a driver's group alone can orphan the browser. The tree is
/// read before anything is killed, while the parent links still exist.
public enum ProcessTree {
    /// Every descendant of `root` (children, their children, ...), parents before children.
    /// Empty where `/proc` is not available.
    public static func descendants(of root: pid_t) -> [pid_t] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        var children: [pid_t: [pid_t]] = [:]
        for entry in entries {
            guard let pid = pid_t(entry), let parent = parentID(of: pid) else { continue }
            children[parent, default: []].append(pid)
        }
        var result: [pid_t] = []
        var queue = children[root] ?? []
        var seen: Set<pid_t> = [root]
        while !queue.isEmpty {
            let next = queue.removeFirst()
            guard seen.insert(next).inserted else { continue }
            result.append(next)
            queue.append(contentsOf: children[next] ?? [])
        }
        return result
    }

    /// The parent of `pid` from `/proc/PID/stat`; `nil` if it is gone.
    static func parentID(of pid: pid_t) -> pid_t? {
        guard let fields = ProcessStat.fields(of: pid), fields.count > 1 else { return nil }
        return pid_t(fields[1])
    }
}
