import Foundation
import SystemSupport

/// A loopback port that accepts TCP connections (through the kernel's backlog) but never answers:
/// a real endpoint that hangs, for timeout tests.
public final class SilentListener: @unchecked Sendable {
    /// The port.
    public let port: UInt16
    private let descriptor: Int32

    public init() throws {
        let bound = try LoopbackSocket.bind(listenBacklog: 16)
        descriptor = bound.descriptor
        port = bound.port
    }

    /// Closes the port.
    public func stop() {
        close(descriptor)
    }
}
