import Foundation
import SystemSupport

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
        let bound = try LoopbackSocket.bind(reusingAddress: false)
        descriptor = bound.descriptor
        port = bound.port
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
