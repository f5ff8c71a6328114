import Foundation

/// A process's `/proc/PID/stat` line, read on Linux: its fields after the command name, which is
/// in parentheses and may hold spaces or parentheses itself. `fields[0]` is the state (`R`, `S`,
/// `Z`, ...), `fields[1]` the parent's ID, `fields[19]` the start time in clock ticks since boot.
///
/// The line is read with one `read` into a stack buffer and split as bytes: a teardown reads the
/// line of every process on the machine (see ``ProcessTree``), and through `FileManager` and
/// `String`'s character view that was a large share of a cold `pagescript run`'s instructions.
enum ProcessStat {
    /// The fields after the command name; `nil` when the process is gone or there is no `/proc`.
    static func fields(of pid: pid_t) -> [Substring]? {
        withLine(of: pid) { line in
            guard let close = line.lastIndex(of: UInt8(ascii: ")")) else { return nil }
            let text = String(decoding: UnsafeBufferPointer(rebasing: line[(close + 1)...]), as: UTF8.self)
            return text.split(separator: " ")
        }
    }

    /// The parent's ID (`fields[1]`), read without making a string; `nil` when the process is gone.
    static func parentID(of pid: pid_t) -> pid_t? {
        withLine(of: pid) { line in
            guard let close = line.lastIndex(of: UInt8(ascii: ")")) else { return nil }
            // ") S 1234 ...": the state, a space, then the parent's ID.
            var index = close + 1
            var field = 0
            var value: pid_t = 0
            var digits = 0
            while index < line.count {
                let byte = line[index]
                index += 1
                if byte == UInt8(ascii: " ") {
                    if field == 2 { break }
                    field += 1
                } else if field == 2 {
                    guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                    let (product, overflow) = value.multipliedReportingOverflow(by: 10)
                    guard !overflow else { return nil }
                    value = product + pid_t(byte - UInt8(ascii: "0"))
                    digits += 1
                }
            }
            return digits > 0 ? value : nil
        }
    }

    /// Calls `body` with the bytes of the process's stat line (read into a fixed buffer larger
    /// than any real line), or returns `nil` when it cannot be read.
    private static func withLine<Result>(of pid: pid_t, _ body: (UnsafeBufferPointer<UInt8>) -> Result?) -> Result? {
        let descriptor = open("/proc/\(pid)/stat", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1024) { buffer -> Result? in
            let count = read(descriptor, buffer.baseAddress, buffer.count)
            guard count > 0 else { return nil }
            return body(UnsafeBufferPointer(rebasing: buffer[..<count]))
        }
    }
}
