import Foundation

/// Checks that something accepts TCP connections at a host and port, failing fast on a refusal.
public enum TCPProbe {
    /// Connects to `host:port` within `timeout` seconds; `nil` on success, else the reason.
    public static func failureReason(host: String, port: UInt16, timeout: Double) -> String? {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc) || canImport(Musl)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        let resolved = getaddrinfo(host, String(port), &hints, &list)
        guard resolved == 0, let first = list else {
            return "cannot resolve \(host): \(String(cString: gai_strerror(resolved)))"
        }
        defer { freeaddrinfo(list) }
        var reason = "no address for \(host)"
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let current = entry {
            entry = current.pointee.ai_next
            let descriptor = socket(current.pointee.ai_family, current.pointee.ai_socktype, current.pointee.ai_protocol)
            guard descriptor >= 0 else { continue }
            defer { close(descriptor) }
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            if connect(descriptor, current.pointee.ai_addr, current.pointee.ai_addrlen) == 0 { return nil }
            guard errno == EINPROGRESS else { reason = errnoDescription(errno); continue }
            var poller = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            let ready = poll(&poller, 1, Int32(timeout * 1000))
            guard ready > 0 else { reason = "no answer within \(Int(timeout)) s"; continue }
            var socketError: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &socketError, &length)
            if socketError == 0 { return nil }
            reason = errnoDescription(socketError)
        }
        return reason
    }
}
