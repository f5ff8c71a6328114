import Foundation

/// PageScript's one HTTP/1.1 server for tests and benchmarks: on a loopback address, a thread per
/// connection (so a browser's idle preconnect never holds up the next request), each request
/// answered with what a route says and recorded, so that a test can prove a refused request never
/// reached it.
///
/// Each connection carries one request and is closed after the response. Paths not in `pages`
/// get a 404.
///
/// ```swift
/// let server = try LoopbackServer(pages: ["/": "<title>Hello</title>"])
/// defer { server.stop() }
/// let url = server.url("/")
///
/// let site = try LoopbackServer { request in
///     request.path == "/slow" ? .page("<title>Slow</title>", delay: 1) : .page("<title>\(request.path)</title>")
/// }
/// ```
public final class LoopbackServer: Sendable {
    /// The address the server listens on (`127.0.0.1`, another of 127.0.0.0/8, or `::1`).
    public let host: String
    /// The port the server listens on.
    public let port: UInt16
    private let core: Core

    /// Starts serving `pages` (path to HTML) on a free loopback port.
    public convenience init(pages: [String: String]) throws {
        try self.init(responses: pages.mapValues { LoopbackResponse(html: $0) })
    }

    /// Starts serving `responses` (path, with or without its query, to response) on a free
    /// loopback port.
    public convenience init(responses: [String: LoopbackResponse]) throws {
        try self.init { request in responses[request.target] ?? responses[request.path] ?? .notFound }
    }

    /// Starts serving on a free port of `host`, answering each request with what `route` says.
    public init(host: String = "127.0.0.1", route: @escaping @Sendable (LoopbackRequest) -> LoopbackResponse) throws {
        let bound = try LoopbackSocket.bind(host: host, listenBacklog: 128)
        self.host = host
        port = bound.port
        core = Core(listener: bound.descriptor, route: route)
        // The thread holds the core, not the server: a server nobody stops is stopped when it goes.
        let core = core
        Thread { core.acceptConnections() }.start()
    }

    deinit {
        core.stop()
    }

    /// The URL of `path` on this server; `host` names it otherwise (`localhost`, a different site
    /// on the same server).
    public func url(_ path: String = "/", host: String? = nil) -> String {
        let name = host ?? self.host
        return "http://\(name.contains(":") ? "[\(name)]" : name):\(port)\(path)"
    }

    /// The requests received so far, in the order they came.
    public var received: [LoopbackRequest] {
        core.lock.withLock { core.requests }
    }

    /// The targets (paths with their queries) of the requests received so far, in order.
    public var requestedPaths: [String] {
        received.map(\.target)
    }

    /// How many requests for `target` (a path with its query) arrived.
    public func requests(for target: String) -> Int {
        received.filter { $0.target == target }.count
    }

    /// Stops accepting connections and closes every open one (responses that never finish
    /// included).
    public func stop() {
        core.stop()
    }

    /// What the accepting and answering threads share.
    private final class Core: @unchecked Sendable {
        let lock = NSLock()
        let listener: Int32
        let route: @Sendable (LoopbackRequest) -> LoopbackResponse
        var requests: [LoopbackRequest] = []
        private var stopped = false
        private var openConnections: Set<Int32> = []

        init(listener: Int32, route: @escaping @Sendable (LoopbackRequest) -> LoopbackResponse) {
            self.listener = listener
            self.route = route
        }

        var isStopped: Bool {
            lock.withLock { stopped }
        }

        func stop() {
            let (wasStopped, open) = lock.withLock { () -> (Bool, Set<Int32>) in
                defer { stopped = true }
                return (stopped, openConnections)
            }
            guard !wasStopped else { return }
            shutdown(listener, Int32(SHUT_RDWR))
            close(listener)
            for connection in open { shutdown(connection, Int32(SHUT_RDWR)) }
        }

        func acceptConnections() {
            while !isStopped {
                let connection = accept(listener, nil, nil)
                if connection < 0 {
                    if isStopped { return }
                    continue
                }
                var patience = timeval(tv_sec: 30, tv_usec: 0)
                setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &patience, socklen_t(MemoryLayout<timeval>.size))
                lock.withLock { _ = openConnections.insert(connection) }
                Thread { [self] in
                    respond(on: connection)
                    lock.withLock { _ = openConnections.remove(connection) }
                    close(connection)
                }.start()
            }
        }

        private func respond(on connection: Int32) {
            var reader = RequestReader(connection: connection)
            guard let request = reader.read() else {
                // Not HTTP (a TLS handshake, say): answer in plain text at once, as real servers
                // do, so that the client fails instead of waiting.
                if reader.sawOtherProtocol { transmit(Array("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8), on: connection) }
                return
            }
            lock.withLock { requests.append(request) }
            let response = route(request)
            if response.delay > 0 { sleepUnlessStopped(response.delay) }
            var head = "HTTP/1.1 \(response.status) \(response.reason)\r\n"
            for (name, value) in response.headers where name.lowercased() != "content-length" {
                head += "\(name): \(value)\r\n"
            }
            let sendsBody = request.method != "HEAD"
            switch response.delivery {
            case .whole:
                head += "Content-Length: \(response.body.count)\r\nConnection: close\r\n\r\n"
                transmit(Array(head.utf8) + (sendsBody ? response.body : []), on: connection)
            case .stalls:
                head += "Content-Length: \(response.body.count + 1_000_000)\r\nConnection: close\r\n\r\n"
                transmit(Array(head.utf8) + response.body, on: connection)
                // Hold the connection open until the client gives up or the server stops.
                var buffer = [UInt8](repeating: 0, count: 1024)
                while !isStopped, read(connection, &buffer, buffer.count) > 0 {}
            case let .pauses(after, seconds):
                head += "Content-Length: \(response.body.count)\r\nConnection: close\r\n\r\n"
                let start = sendsBody ? Array(response.body.prefix(after)) : []
                guard transmit(Array(head.utf8) + start, on: connection), sendsBody else { return }
                sleepUnlessStopped(seconds)
                transmit(Array(response.body.dropFirst(after)), on: connection)
            case let .chunked(size, count):
                head += "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
                guard transmit(Array(head.utf8), on: connection) else { return }
                let chunk = Array(String(size, radix: 16).utf8) + [0x0D, 0x0A] + [UInt8](repeating: UInt8(ascii: "x"), count: size) + [0x0D, 0x0A]
                for _ in 0..<count where !isStopped {
                    guard transmit(chunk, on: connection) else { return }
                }
                transmit(Array("0\r\n\r\n".utf8), on: connection)
            }
        }

        private func sleepUnlessStopped(_ seconds: Double) {
            let deadline = Date().addingTimeInterval(seconds)
            while !isStopped, Date() < deadline { usleep(10_000) }
        }

        /// Sends `bytes`; false when the client has gone.
        @discardableResult
        private func transmit(_ bytes: [UInt8], on connection: Int32) -> Bool {
            // A client that gave up closes the connection: no SIGPIPE for that.
            #if canImport(Glibc) || canImport(Musl)
            let flags = Int32(MSG_NOSIGNAL)
            #else
            let flags: Int32 = 0
            #endif
            var sent = 0
            while sent < bytes.count {
                let written = bytes[sent...].withUnsafeBytes { send(connection, $0.baseAddress, $0.count, flags) }
                if written <= 0 { return false }
                sent += written
            }
            return true
        }
    }
}

/// Reads one HTTP/1.1 request from a connection: the head, then a body by `Content-Length` or
/// chunked transfer encoding.
private struct RequestReader {
    let connection: Int32
    private var bytes: [UInt8] = []
    /// Whether the first bytes were not an HTTP request line.
    private(set) var sawOtherProtocol = false
    private static let headLimit = 65_536

    init(connection: Int32) {
        self.connection = connection
    }

    mutating func read() -> LoopbackRequest? {
        var headEnd: Int?
        while headEnd == nil {
            guard fill() else { return nil }
            if let first = bytes.first, !(UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(first) {
                sawOtherProtocol = true
                return nil
            }
            headEnd = Self.headerEnd(in: bytes)
            if headEnd == nil, bytes.count > Self.headLimit { return nil }
        }
        guard let headEnd else { return nil }
        let lines = String(decoding: bytes[..<headEnd], as: UTF8.self).components(separatedBy: "\r\n")
        let requestLine = lines.first?.split(separator: " ") ?? []
        let headers = lines.dropFirst().compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        bytes.removeFirst(headEnd + 4)
        let request = LoopbackRequest(method: requestLine.first.map(String.init) ?? "GET",
                                      target: requestLine.count > 1 ? String(requestLine[1]) : "/", headers: headers, body: [])
        var body: [UInt8] = []
        if let length = request.header("Content-Length").flatMap(Int.init), length > 0 {
            while bytes.count < length { guard fill() else { return nil } }
            body = Array(bytes.prefix(length))
        } else if request.header("Transfer-Encoding")?.lowercased().contains("chunked") == true {
            guard let chunks = readChunks() else { return nil }
            body = chunks
        }
        return LoopbackRequest(method: request.method, target: request.target, headers: headers, body: body)
    }

    private mutating func readChunks() -> [UInt8]? {
        var body: [UInt8] = []
        while true {
            var lineEnd = Self.lineEnd(in: bytes)
            while lineEnd == nil {
                guard fill() else { return nil }
                lineEnd = Self.lineEnd(in: bytes)
            }
            guard let end = lineEnd else { return nil }
            let sizeText = String(decoding: bytes[..<end], as: UTF8.self).split(separator: ";").first ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16) else { return nil }
            bytes.removeFirst(end + 2)
            while bytes.count < size + 2 { guard fill() else { return nil } }
            if size == 0 { return body }
            body += bytes.prefix(size)
            bytes.removeFirst(size + 2)
        }
    }

    /// Reads more bytes; false at the end of the stream or on an error (a timeout included).
    private mutating func fill() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 16_384)
        let count = Foundation.read(connection, &buffer, buffer.count)
        guard count > 0 else { return false }
        bytes += buffer[0..<count]
        return true
    }

    private static func headerEnd(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        return (0...(bytes.count - 4)).first { bytes[$0] == 0x0D && bytes[$0 + 1] == 0x0A && bytes[$0 + 2] == 0x0D && bytes[$0 + 3] == 0x0A }
    }

    private static func lineEnd(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 2 else { return nil }
        return (0...(bytes.count - 2)).first { bytes[$0] == 0x0D && bytes[$0 + 1] == 0x0A }
    }
}
