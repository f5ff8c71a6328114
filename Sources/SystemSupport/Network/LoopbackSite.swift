import Foundation

/// A loopback HTTP/1.1 server that answers many requests at once (a thread per connection), each
/// path with a behaviour: a page, a slow page, an error status, or a page that never finishes
/// loading. For tests and benchmarks that drive several browsers against one site.
///
/// ```swift
/// let site = try LoopbackSite { path in
///     path == "/slow" ? .page("<title>Slow</title>", delay: 1) : .page("<title>\(path)</title>")
/// }
/// defer { site.stop() }
/// site.url("/slow")
/// ```
public final class LoopbackSite: @unchecked Sendable {
    /// What the server does for a path.
    public enum Response: Sendable {
        /// Sends `html` with `status` after waiting `delay` seconds.
        case page(String, status: Int = 200, delay: Double = 0)
        /// Sends the headers and the start of a body it promises to be longer, then nothing more
        /// until the server stops: a page that never finishes loading.
        case neverFinishes(String)
    }

    /// The port the server listens on.
    public let port: UInt16
    private let listener: Int32
    private let route: @Sendable (String) -> Response
    private let lock = NSLock()
    private var stopped = false
    private var openConnections: Set<Int32> = []
    private var requestCounts: [String: Int] = [:]

    /// Starts serving on a free loopback port.
    ///
    /// - Parameter route: The response for a request's path (with its query).
    public init(route: @escaping @Sendable (String) -> Response) throws {
        let bound = try LoopbackSocket.bind(listenBacklog: 128)
        listener = bound.descriptor
        port = bound.port
        self.route = route
        let thread = Thread { [self] in acceptConnections() }
        thread.start()
    }

    /// The URL of `path` on this server.
    public func url(_ path: String = "/") -> String {
        "http://127.0.0.1:\(port)\(path)"
    }

    /// How many requests for `path` (with its query) arrived.
    public func requests(for path: String) -> Int {
        lock.lock()
        defer { lock.unlock() }
        return requestCounts[path] ?? 0
    }

    /// Stops accepting connections and closes every open one (pages that never finish included).
    public func stop() {
        lock.lock()
        let wasStopped = stopped
        stopped = true
        let open = openConnections
        lock.unlock()
        guard !wasStopped else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        for connection in open { shutdown(connection, Int32(SHUT_RDWR)) }
    }

    private var isStopped: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopped
    }

    private func acceptConnections() {
        while !isStopped {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if isStopped { return }
                continue
            }
            lock.lock()
            openConnections.insert(connection)
            lock.unlock()
            let thread = Thread { [self] in
                respond(on: connection)
                lock.lock()
                openConnections.remove(connection)
                lock.unlock()
                close(connection)
            }
            thread.start()
        }
    }

    private func respond(on connection: Int32) {
        var request = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !Self.containsHeaderEnd(request) {
            let count = read(connection, &buffer, buffer.count)
            if count <= 0 { return }
            request.append(contentsOf: buffer[0..<count])
            if request.count > 65536 { return }
        }
        let line = String(decoding: request.prefix { $0 != 0x0D }, as: UTF8.self)
        let parts = line.split(separator: " ")
        let path = parts.count > 1 ? String(parts[1]) : "/"
        lock.lock()
        requestCounts[path, default: 0] += 1
        lock.unlock()
        switch route(path) {
        case let .page(html, status, delay):
            if delay > 0 { sleepUnlessStopped(delay) }
            let body = Array(html.utf8)
            let header = "HTTP/1.1 \(status) \(Self.reason(status))\r\nContent-Type: text/html; charset=utf-8\r\n"
                + "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
            transmit(Array(header.utf8) + body, on: connection)
        case let .neverFinishes(start):
            let body = Array(start.utf8)
            let header = "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: \(body.count + 1_000_000)\r\n"
                + "Connection: close\r\n\r\n"
            transmit(Array(header.utf8) + body, on: connection)
            // Hold the connection open until the browser gives up or the server stops.
            while !isStopped, read(connection, &buffer, buffer.count) > 0 {}
        }
    }

    private func sleepUnlessStopped(_ seconds: Double) {
        let deadline = Date().addingTimeInterval(seconds)
        while !isStopped, Date() < deadline { usleep(10_000) }
    }

    private func transmit(_ bytes: [UInt8], on connection: Int32) {
        // A browser that gave up on the page closes the connection: no SIGPIPE for that.
        #if canImport(Glibc) || canImport(Musl)
        let flags = Int32(MSG_NOSIGNAL)
        #else
        let flags: Int32 = 0
        #endif
        var sent = 0
        while sent < bytes.count {
            let written = bytes[sent...].withUnsafeBytes { send(connection, $0.baseAddress, $0.count, flags) }
            if written <= 0 { return }
            sent += written
        }
    }

    private static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 404: "Not Found"
        case 500: "Internal Server Error"
        default: "Status"
        }
    }

    private static func containsHeaderEnd(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 4 else { return false }
        for index in 0...(bytes.count - 4) where bytes[index] == 0x0D && bytes[index + 1] == 0x0A && bytes[index + 2] == 0x0D && bytes[index + 3] == 0x0A {
            return true
        }
        return false
    }
}
