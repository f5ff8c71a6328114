import Foundation

/// Picks a TCP port on the loopback interface that nothing listens on right now.
public enum FreePort {
    /// Asks the kernel for a free loopback port by binding port 0, then releases it.
    ///
    /// Another process may take the port before the caller does; callers that start a server on it
    /// should retry with a new port when the server fails to bind.
    public static func next() throws(FreePortError) -> UInt16 {
        #if canImport(Glibc) || canImport(Musl)
        let socketType = Int32(SOCK_STREAM.rawValue)
        #else
        let socketType = SOCK_STREAM
        #endif
        let descriptor = socket(AF_INET, socketType, 0)
        guard descriptor >= 0 else { throw FreePortError(reason: errnoDescription(errno)) }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else { throw FreePortError(reason: errnoDescription(errno)) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                getsockname(descriptor, $0, &length)
            }
        }
        guard named == 0 else { throw FreePortError(reason: errnoDescription(errno)) }
        return UInt16(bigEndian: address.sin_port)
    }
}

/// The kernel would not give PageScript a loopback port.
public struct FreePortError: Error, Equatable, CustomStringConvertible {
    /// The system's reason.
    public let reason: String
    public var description: String { "no free loopback port: \(reason)" }
}
