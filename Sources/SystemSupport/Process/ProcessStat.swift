import Foundation

/// A process's `/proc/PID/stat` line, read on Linux: its fields after the command name, which is
/// in parentheses and may hold spaces or parentheses itself. `fields[0]` is the state (`R`, `S`,
/// `Z`, ...), `fields[1]` the parent's ID, `fields[19]` the start time in clock ticks since boot.
enum ProcessStat {
    /// The fields after the command name; `nil` when the process is gone or there is no `/proc`.
    static func fields(of pid: pid_t) -> [Substring]? {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/stat") else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        guard let close = text.lastIndex(of: ")") else { return nil }
        return text[text.index(after: close)...].split(separator: " ")
    }
}
