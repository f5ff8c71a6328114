import CSystemSupport
import Foundation

/// The TCP sockets of another process PageScript started: whether it listens on a port yet, and
/// turning Nagle's algorithm off on them (`TCP_NODELAY`) from outside, for programs that talk
/// over loopback TCP in small messages and never set it themselves.
///
/// A write that follows an unacknowledged one waits, under Nagle's algorithm, until the first is
/// acknowledged, and Linux delays an acknowledgement by up to 40 ms: a program that answers with
/// two writes in a row makes its peer wait that long. The option is set on a copy of the
/// process's descriptor (`pidfd_getfd`, Linux 5.6 and later), which is the same socket; that
/// needs the right to trace the process, which a parent has over its own children unless the
/// system forbids it (Yama's `ptrace_scope` 2 or 3, a container's seccomp profile).
/// A listening socket passes the option on to the connections it accepts.
///
/// ```swift
/// if ProcessSockets.canReach(browser.processID) {
///     _ = try ProcessSockets.setNoDelay(inProcess: browser.processID)
/// }
/// ```
public enum ProcessSockets {
    /// Why the sockets of a process could not be reached.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// What was being done.
        public let operation: String
        /// The system's error number.
        public let code: Int32

        public var description: String {
            "\(operation): \(String(cString: strerror(code)))"
        }
    }

    /// Whether this process may copy descriptors of process `processID` (tried on its standard
    /// error, which every process PageScript starts has).
    public static func canReach(_ processID: pid_t) -> Bool {
        guard let process = try? open(processID) else { return false }
        defer { close(process) }
        let copy = pagescript_pidfd_getfd(process, 2)
        guard copy >= 0 else { return false }
        close(copy)
        return true
    }

    /// Sets `TCP_NODELAY` on every IPv4 and IPv6 stream socket process `processID` has open.
    ///
    /// - Returns: How many sockets it was set on.
    /// - Throws: ``Failure`` when the process cannot be reached at all; a socket that closes
    ///   meanwhile is skipped.
    @discardableResult
    public static func setNoDelay(inProcess processID: pid_t) throws(Failure) -> Int {
        var count = 0
        try forEachTCPSocket(inProcess: processID) { socket in
            var on: Int32 = 1
            if setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size)) == 0 { count += 1 }
        }
        return count
    }

    /// Whether `TCP_NODELAY` is set, for each IPv4 and IPv6 stream socket process `processID` has
    /// open (in the order of its descriptors' numbers).
    public static func noDelaySettings(inProcess processID: pid_t) throws(Failure) -> [Bool] {
        var settings: [Bool] = []
        try forEachTCPSocket(inProcess: processID) { socket in
            var value: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            if getsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &value, &length) == 0 { settings.append(value != 0) }
        }
        return settings
    }

    /// Calls `body` with a copy of each of the process's TCP sockets, closed after the call.
    private static func forEachTCPSocket(inProcess processID: pid_t, _ body: (Int32) -> Void) throws(Failure) {
        let process = try open(processID)
        defer { close(process) }
        let folder = "/proc/\(processID)/fd"
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
            throw Failure(operation: "reading \(folder)", code: ESRCH)
        }
        for descriptor in entries.compactMap(Int32.init).sorted() {
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "\(folder)/\(descriptor)"),
                  target.hasPrefix("socket:") else { continue }
            let copy = pagescript_pidfd_getfd(process, descriptor)
            guard copy >= 0 else {
                if errno == EBADF { continue }
                throw Failure(operation: "copying descriptor \(descriptor) of process \(processID)", code: errno)
            }
            defer { close(copy) }
            if isTCP(copy) { body(copy) }
        }
    }

    /// Whether something listens on TCP `port` of 127.0.0.1 (or every address) now, asked of the
    /// kernel without connecting.
    ///
    /// The kernel's socket diagnostics answer from its table of listening sockets alone, at little
    /// cost. `/proc/net/tcp`, read where they cannot be asked (a sandbox without netlink), walks
    /// every bucket of the established table on each read, which costs the kernel far more, and
    /// polled while MiniBrowser starts, it competes for the CPU with the browser it waits for.
    public static func isListening(onLoopbackPort port: UInt16) -> Bool {
        switch pagescript_tcp_listening_on_loopback(port) {
        case 1: true
        case 0: false
        default: isListeningInTable(onLoopbackPort: port)
        }
    }

    /// ``isListening(onLoopbackPort:)`` read from `/proc/net/tcp`.
    static func isListeningInTable(onLoopbackPort port: UInt16) -> Bool {
        guard let table = wholeFile("/proc/net/tcp") else { return false }
        let wanted = [String(format: "0100007F:%04X", port), String(format: "00000000:%04X", port)]
        for line in table.split(separator: "\n").dropFirst() {
            let columns = line.split(separator: " ", omittingEmptySubsequences: true)
            guard columns.count > 3, columns[3] == "0A" else { continue }
            if wanted.contains(String(columns[1])) { return true }
        }
        return false
    }

    /// A file of the kernel's read to its end: such files say they are empty, and reading them
    /// as a file of that size gets one page (26 of `/proc/net/tcp`'s lines).
    static func wholeFile(_ path: String) -> String? {
        let descriptor = Foundation.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(descriptor, &chunk, chunk.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return count == 0 ? String(decoding: bytes, as: UTF8.self) : nil }
            bytes += chunk[0..<count]
        }
    }

    private static func open(_ processID: pid_t) throws(Failure) -> Int32 {
        let process = pagescript_pidfd_open(processID)
        guard process >= 0 else { throw Failure(operation: "opening process \(processID)", code: errno) }
        return process
    }

    private static func isTCP(_ descriptor: Int32) -> Bool {
        #if os(Linux)
        var domain: Int32 = 0
        var type: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_DOMAIN, &domain, &length) == 0 else { return false }
        length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_TYPE, &type, &length) == 0 else { return false }
        #if canImport(Glibc) || canImport(Musl)
        let stream = Int32(SOCK_STREAM.rawValue)
        #else
        let stream = SOCK_STREAM
        #endif
        return (domain == AF_INET || domain == AF_INET6) && type == stream
        #else
        // Only Linux has pidfd_getfd; nothing reaches here elsewhere.
        return false
        #endif
    }
}
