import Foundation

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
}
