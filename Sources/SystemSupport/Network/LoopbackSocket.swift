import Foundation

/// A TCP socket bound to a loopback address (127.0.0.1 unless told), the one piece of socket setup
/// PageScript needs in several places (finding a free port, test servers).
public enum LoopbackSocket {
    /// Creates a TCP socket bound to `host:port` (0 lets the kernel choose), listening with
    /// `backlog` when given, and returns its descriptor and actual port. The caller closes it.
    ///
    /// `host` is a numeric IPv4 or IPv6 address: `127.0.0.1`, another of 127.0.0.0/8 (Linux
    /// answers on all of them), or `::1`. With `reusingAddress` (the default) the socket sets
    /// `SO_REUSEADDR`, so a server can bind again a port whose last connections linger; without
    /// it, no other socket can bind the port while this one holds it.
    public static func bind(
        host: String = "127.0.0.1", port: UInt16 = 0, listenBacklog backlog: Int32? = nil, reusingAddress: Bool = true
    ) throws(LoopbackSocketError) -> (descriptor: Int32, port: UInt16) {
        #if canImport(Glibc) || canImport(Musl)
        let socketType = Int32(SOCK_STREAM.rawValue)
        #else
        let socketType = SOCK_STREAM
        #endif
        let isIPv6 = host.contains(":")
        let descriptor = socket(isIPv6 ? AF_INET6 : AF_INET, socketType, 0)
        guard descriptor >= 0 else { throw LoopbackSocketError(operation: "socket", reason: errnoDescription(errno)) }
        func fail(_ operation: String) -> LoopbackSocketError {
            let reason = errnoDescription(errno)
            close(descriptor)
            return LoopbackSocketError(operation: operation, reason: reason)
        }
        if reusingAddress {
            var yes: Int32 = 1
            setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        }
        var storage = sockaddr_storage()
        let length: socklen_t
        if isIPv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            guard inet_pton(AF_INET6, host, &address.sin6_addr) == 1 else {
                close(descriptor)
                throw LoopbackSocketError(operation: "bind", reason: "\(host) is not a numeric IPv6 address")
            }
            withUnsafeMutableBytes(of: &storage) { target in withUnsafeBytes(of: &address) { target.copyMemory(from: $0) } }
            length = socklen_t(MemoryLayout<sockaddr_in6>.size)
        } else {
            var address = Self.address(port: port)
            guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
                close(descriptor)
                throw LoopbackSocketError(operation: "bind", reason: "\(host) is not a numeric IPv4 address")
            }
            withUnsafeMutableBytes(of: &storage) { target in withUnsafeBytes(of: &address) { target.copyMemory(from: $0) } }
            length = socklen_t(MemoryLayout<sockaddr_in>.size)
        }
        let bound = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Foundation.bind(descriptor, $0, length) }
        }
        guard bound == 0 else { throw fail("bind") }
        if let backlog, listen(descriptor, backlog) != 0 { throw fail("listen") }
        var named = sockaddr_storage()
        var namedLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &named) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &namedLength) }
        }
        guard result == 0 else { throw fail("getsockname") }
        let boundPort = withUnsafeBytes(of: &named) { bytes in
            isIPv6 ? bytes.load(as: sockaddr_in6.self).sin6_port : bytes.load(as: sockaddr_in.self).sin_port
        }
        return (descriptor, UInt16(bigEndian: boundPort))
    }

    /// The IPv4 socket address `127.0.0.1:port`.
    public static func address(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }
}

/// A loopback socket could not be set up.
public struct LoopbackSocketError: Error, Equatable, CustomStringConvertible {
    /// The call that failed.
    public let operation: String
    /// The system's reason.
    public let reason: String
    public var description: String { "loopback socket: \(operation) failed: \(reason)" }
}

/// Picks a TCP port on the loopback interface that nothing listens on right now.
public enum FreePort {
    /// Asks the kernel for a free loopback port by binding port 0, then releases it.
    ///
    /// Another process may take the port before the caller does; callers that start a server on it
    /// should retry with a new port when the server fails to bind.
    public static func next() throws(LoopbackSocketError) -> UInt16 {
        let socket = try LoopbackSocket.bind()
        close(socket.descriptor)
        return socket.port
    }

    /// A free loopback port below the kernel's ephemeral range (`ip_local_port_range`), for a
    /// server another program starts on it a moment later: the kernel gives ports of that range to
    /// every outgoing connection and to every bind of port 0, so a port from ``next()`` can be taken
    /// meanwhile on a busy machine, one from below it only by a program that picks its port the
    /// same way. Falls back to ``next()`` where the range leaves no room below it.
    public static func belowEphemeralRange() throws(LoopbackSocketError) -> UInt16 {
        let lowest = ephemeralRangeStart()
        guard lowest > 12_000 else { return try next() }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<32 {
            let candidate = UInt16.random(in: 10_000...(lowest - 1), using: &generator)
            if let socket = try? LoopbackSocket.bind(port: candidate, reusingAddress: false) {
                close(socket.descriptor)
                return candidate
            }
        }
        return try next()
    }

    /// The first port of the kernel's ephemeral range (Linux's
    /// `/proc/sys/net/ipv4/ip_local_port_range`; 49152, IANA's, elsewhere).
    static func ephemeralRangeStart() -> UInt16 {
        guard let text = try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8),
              let first = text.split(whereSeparator: \.isWhitespace).first, let port = UInt16(first) else { return 49152 }
        return port
    }
}
