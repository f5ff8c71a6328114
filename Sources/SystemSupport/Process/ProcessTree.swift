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
        guard let directory = opendir("/proc") else { return [] }
        defer { closedir(directory) }
        var children: [pid_t: [pid_t]] = [:]
        while let entry = readdir(directory) {
            guard let pid = processID(named: entry), let parent = ProcessStat.parentID(of: pid) else { continue }
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

    /// The process ID a `/proc` entry is named by; `nil` for the entries that are not processes.
    private static func processID(named entry: UnsafeMutablePointer<dirent>) -> pid_t? {
        withUnsafeBytes(of: entry.pointee.d_name) { name -> pid_t? in
            var value: pid_t = 0
            var digits = 0
            for byte in name {
                if byte == 0 { break }
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), digits < 9 else { return nil }
                value = value * 10 + pid_t(byte - UInt8(ascii: "0"))
                digits += 1
            }
            return digits > 0 ? value : nil
        }
    }
}
