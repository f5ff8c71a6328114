import Foundation

/// A small HTTP/1.1 server on 127.0.0.1 that serves fixed pages, for tests that need a real page.
///
/// Each request gets one response and the connection is closed; connections are served side by
/// side, so one that never sends a request does not hold up the others. Paths not in `pages` get a
/// 404.
///
/// ```swift
/// let server = try LoopbackServer(pages: ["/": "<title>Hello</title>"])
/// defer { server.stop() }
/// let url = server.url("/")
/// ```
public final class LoopbackServer: @unchecked Sendable {
    /// The port the server listens on.
    public let port: UInt16
    private let listener: Int32
    private let responses: [String: LoopbackResponse]
    private let lock = NSLock()
    private var stopped = false
    private var thread: Thread?
    private var requested: [String] = []

    /// Starts serving `pages` (path to HTML) on a free loopback port.
    public convenience init(pages: [String: String]) throws {
        try self.init(responses: pages.mapValues { LoopbackResponse(html: $0) })
    }

    /// Starts serving `responses` (path to response) on a free loopback port.
    public init(responses: [String: LoopbackResponse]) throws {
        self.responses = responses
        let bound = try LoopbackSocket.bind(listenBacklog: 64)
        let listener = bound.descriptor
        let port = bound.port
        self.listener = listener
        self.port = port
        let thread = Thread { [self] in serve() }
        self.thread = thread
        thread.start()
    }

    /// The URL of `path` on this server.
    public func url(_ path: String = "/") -> String {
        "http://127.0.0.1:\(port)\(path)"
    }

    /// The paths (with their queries) of the requests received so far, in the order they came.
    public var requestedPaths: [String] {
        lock.withLock { requested }
    }

    /// Stops accepting connections.
    public func stop() {
        lock.lock()
        let wasStopped = stopped
        stopped = true
        lock.unlock()
        if !wasStopped {
            shutdown(listener, Int32(SHUT_RDWR))
            close(listener)
        }
    }

    private var isStopped: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopped
    }

    private func serve() {
        while !isStopped {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if isStopped { return }
                continue
            }
            // Each connection on its own thread: a browser's speculative connection that sends
            // nothing must not hold up the next request (it would time out behind it).
            var patience = timeval(tv_sec: 30, tv_usec: 0)
            setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &patience, socklen_t(MemoryLayout<timeval>.size))
            Thread { [self] in
                respond(on: connection)
                close(connection)
            }.start()
        }
    }

    private func respond(on connection: Int32) {
        var request = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !request.containsHeaderEnd {
            let count = read(connection, &buffer, buffer.count)
            if count <= 0 { return }
            request.append(contentsOf: buffer[0..<count])
            if request.count > 65536 { return }
            // Not HTTP (a TLS handshake, say): answer in plain text at once, as real servers do, so
            // that the client fails instead of waiting.
            if let first = request.first, !(UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(first) {
                let refusal = Array("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8)
                _ = refusal.withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
                return
            }
        }
        let line = String(decoding: request.prefix { $0 != 0x0D }, as: UTF8.self)
        let parts = line.split(separator: " ")
        let path = parts.count > 1 ? String(parts[1]) : "/"
        lock.withLock { requested.append(path) }
        let pathWithoutQuery = String(path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? "/")
        let found = responses[path] ?? responses[pathWithoutQuery]
        let status = found?.status ?? "404 Not Found"
        let response = found ?? LoopbackResponse(html: "<title>Not found</title>")
        let content = Array(response.body.utf8)
        let extra = response.headers.map { "\($0.name): \($0.value)\r\n" }.joined()
        let header = "HTTP/1.1 \(status)\r\nContent-Type: \(response.contentType)\r\n\(extra)Content-Length: \(content.count)\r\nConnection: close\r\n\r\n"
        let bytes = Array(header.utf8) + content
        if response.delay > 0 { usleep(UInt32(response.delay * 1_000_000)) }
        var sent = 0
        while sent < bytes.count {
            let written = bytes[sent...].withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
            if written <= 0 { return }
            sent += written
        }
    }
}


private extension Array where Element == UInt8 {
    var containsHeaderEnd: Bool {
        guard count >= 4 else { return false }
        for index in 0...(count - 4) where self[index] == 0x0D && self[index + 1] == 0x0A && self[index + 2] == 0x0D && self[index + 3] == 0x0A {
            return true
        }
        return false
    }
}
