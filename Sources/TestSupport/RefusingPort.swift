import Foundation

/// A loopback port that refuses every connection, and that no other socket can take while the
/// value lives: bound without `SO_REUSEADDR` and never listening, so the kernel answers every
/// connection attempt with a reset ("connection refused").
///
/// A server stopped to free its port is no such thing: another test running beside it may be
/// given the same port at once, and the "refused" page then loads.
///
/// ```swift
/// let refusing = try RefusingPort()
/// defer { refusing.stop() }
/// let url = refusing.url("/")   // connecting to it is refused
/// ```
public final class RefusingPort: @unchecked Sendable {
    /// The port.
    public let port: UInt16
    private let descriptor: Int32

    /// Binds a free loopback port.
    public init() throws {
        #if canImport(Glibc) || canImport(Musl)
        let socketType = Int32(SOCK_STREAM.rawValue)
        #else
        let socketType = SOCK_STREAM
        #endif
        let descriptor = socket(AF_INET, socketType, 0)
        guard descriptor >= 0 else { throw RefusingPortError(operation: "socket", code: errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = bound == 0 ? withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        } : -1
        guard named == 0 else {
            let code = errno
            close(descriptor)
            throw RefusingPortError(operation: bound == 0 ? "getsockname" : "bind", code: code)
        }
        self.descriptor = descriptor
        port = UInt16(bigEndian: address.sin_port)
    }

    /// `http://127.0.0.1:<port><path>`.
    public func url(_ path: String = "/") -> String {
        "http://127.0.0.1:\(port)\(path)"
    }

    /// Frees the port.
    public func stop() {
        close(descriptor)
    }
}

/// A socket call that failed while setting up a ``RefusingPort``.
public struct RefusingPortError: Error, CustomStringConvertible {
    /// The call.
    public let operation: String
    /// Its `errno`.
    public let code: Int32

    public var description: String { "\(operation) failed: \(String(cString: strerror(code)))" }
}
