import SystemSupport

/// Writes bytes to the terminal completely, through interrupted and partial writes.
///
/// The library never prints; every byte for the terminal goes through here.
struct TerminalWriter: Sendable {
    let fileDescriptor: Int32

    func writeAll(_ bytes: [UInt8]) throws(TerminalError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return write(fileDescriptor, base + offset, buffer.count - offset)
            }
            if written > 0 {
                offset += written
                continue
            }
            let code = currentErrno
            if written < 0, code == EINTR {
                continue
            }
            if written < 0, code == EAGAIN || code == EWOULDBLOCK {
                // A non-blocking terminal whose buffer is full: wait until it drains.
                var descriptor = pollfd(fd: fileDescriptor, events: Int16(POLLOUT), revents: 0)
                _ = poll(&descriptor, 1, 100)
                continue
            }
            throw .systemCall(name: "write", errno: code)
        }
    }

    func writeAll(_ text: String) throws(TerminalError) {
        try writeAll(Array(text.utf8))
    }
}
