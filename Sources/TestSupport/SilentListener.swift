import Foundation
import SystemSupport

/// A loopback port that accepts TCP connections (through the kernel's backlog) but never answers:
/// a real endpoint that hangs, for timeout tests.
public final class SilentListener: @unchecked Sendable {
    /// The port.
    public let port: UInt16
    private let descriptor: Int32

    public init() throws {
        #if canImport(Glibc) || canImport(Musl)
        let socketType = Int32(SOCK_STREAM.rawValue)
        #else
        let socketType = SOCK_STREAM
        #endif
        let descriptor = socket(AF_INET, socketType, 0)
        guard descriptor >= 0 else { throw ServerError(reason: "socket: \(errnoDescription(errno))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(descriptor, 16) == 0 else {
            close(descriptor)
            throw ServerError(reason: "bind/listen: \(errnoDescription(errno))")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        self.descriptor = descriptor
        port = UInt16(bigEndian: address.sin_port)
    }

    /// Closes the port.
    public func stop() {
        close(descriptor)
    }
}
