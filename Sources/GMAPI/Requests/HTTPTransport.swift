import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import SystemSupport
import UserScripts

/// One HTTP exchange, no redirect followed: what both `GM_xmlhttpRequest` and the fetching of
/// `@require` files build on, each checking every hop itself before it asks for the next.
///
/// Every exchange has a deadline that covers connecting, the head and the whole body (a server
/// that never answers, or stops half-way, ends in ``Failure/timedOut``, never a hang), and a size
/// limit on the body (checked against `Content-Length` before reading, and while reading).
/// Bodies are not decompressed: PageScript sends no `Accept-Encoding`.
///
/// A connection that cannot be made (refused, unreachable) fails the exchange at once, as in a
/// browser: AsyncHTTPClient would otherwise try again with a growing delay until the connect
/// timeout, so a `@require` on a dead server or a `GM_xmlhttpRequest` to a closed port took the
/// whole connect timeout (10 s by default) to report "connection refused".
final class HTTPTransport: Sendable {
    private let client: HTTPClient

    /// Why an exchange produced no response.
    enum Failure: Error, Equatable {
        case timedOut
        case tooLarge
        case cancelled
        case network(String)
        /// The body's destination could not take it (a file that could not be written): why.
        case unwritable(String)
    }

    /// A response's status line and headers.
    struct Head: Sendable {
        let status: Int
        let reason: String
        let headers: [GMHeaderField]

        func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }

        var isRedirect: Bool { [301, 302, 303, 307, 308].contains(status) && header("location") != nil }
    }

    /// One response, whole.
    struct Response: Sendable {
        let status: Int
        let reason: String
        let headers: [GMHeaderField]
        let body: [UInt8]

        func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }

        var isRedirect: Bool { [301, 302, 303, 307, 308].contains(status) && header("location") != nil }
    }

    /// Request headers PageScript sets itself (framing, encoding, the connection): a value from a
    /// script is dropped rather than sent twice or in conflict.
    static let headersPageScriptControls: Set<String> = [
        "host", "content-length", "transfer-encoding", "connection", "keep-alive", "te", "trailer", "upgrade",
        "expect", "accept-encoding", "proxy-connection",
    ]

    init(connectTimeout: Double) {
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        configuration.timeout.connect = .milliseconds(Int64(connectTimeout * 1000))
        configuration.decompression = .disabled
        configuration.connectionPool.retryConnectionEstablishment = false
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// Closes the connections; call once, when done.
    func shutdown() async {
        try? await client.shutdown()
    }

    /// Sends one request and reads the whole response before `deadline`.
    func send(
        method: String,
        url: PageURL,
        headers: [GMHeaderField],
        body: [UInt8]?,
        deadline: ContinuousClock.Instant,
        maximumBytes: Int
    ) async throws(Failure) -> Response {
        let exchange = try await open(method: method, url: url, headers: headers, body: body, deadline: deadline, maximumBytes: maximumBytes)
        let bytes = try await exchange.read(into: MemoryBody()).bytes
        return Response(status: exchange.head.status, reason: exchange.head.reason, headers: exchange.head.headers, body: bytes)
    }

    /// Sends one request and waits for the response's head, before `deadline`; the body is read
    /// by the caller, with ``Exchange/read(into:)``, into whatever ``ResponseBody`` suits it.
    func open(
        method: String,
        url: PageURL,
        headers: [GMHeaderField],
        body: [UInt8]?,
        deadline: ContinuousClock.Instant,
        maximumBytes: Int
    ) async throws(Failure) -> Exchange {
        var request = HTTPClientRequest(url: url.description)
        request.method = HTTPMethod(rawValue: method)
        for header in headers where !Self.headersPageScriptControls.contains(header.name.lowercased()) {
            request.headers.add(name: header.name, value: header.value)
        }
        if let body {
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        let remaining = ContinuousClock.now.duration(to: deadline)
        guard remaining > .zero else { throw .timedOut }
        let response: HTTPClientResponse
        do {
            response = try await client.execute(request, timeout: .nanoseconds(Self.nanoseconds(remaining)))
        } catch {
            throw Self.failure(for: error)
        }
        if let length = response.headers["content-length"].first.flatMap({ Int($0) }), length > maximumBytes {
            throw .tooLarge
        }
        let head = Head(status: Int(response.status.code), reason: response.status.reasonPhrase,
                        headers: response.headers.map { GMHeaderField(name: $0.name, value: $0.value) })
        return Exchange(head: head, body: response.body, deadline: deadline, maximumBytes: maximumBytes)
    }

    /// A response whose head has arrived and whose body has not been read: read it once, with
    /// ``read(into:)`` (a body left unread closes the connection).
    struct Exchange: Sendable {
        let head: Head
        fileprivate let body: HTTPClientResponse.Body
        fileprivate let deadline: ContinuousClock.Instant
        fileprivate let maximumBytes: Int

        /// Reads the body into `destination`, buffer by buffer, within the exchange's deadline and
        /// size limit, and returns the destination as it ends; a body that breaks off, takes too
        /// long or grows too large throws, and the destination is left as far as it got.
        func read<Destination: ResponseBody>(into destination: Destination) async throws(Failure) -> Destination {
            try await HTTPTransport.read(body, into: destination, until: deadline, maximumBytes: maximumBytes)
        }
    }

    /// Reads the body before the deadline. The deadline is a timer on an event loop that cancels
    /// the reading task; the reading task is never awaited past it, and the timer is dropped as
    /// soon as the body is complete (a sleeping child task in a task group would hold the group
    /// open until the sleep notices its cancellation).
    private static func read<Destination: ResponseBody>(
        _ body: HTTPClientResponse.Body,
        into destination: Destination,
        until deadline: ContinuousClock.Instant,
        maximumBytes: Int
    ) async throws(Failure) -> Destination {
        let reader = Task { () throws -> Destination in
            var destination = destination
            var count = 0
            for try await buffer in body {
                guard count + buffer.readableBytes <= maximumBytes else { throw Failure.tooLarge }
                count += buffer.readableBytes
                try buffer.withUnsafeReadableBytes { bytes throws(Failure) in try destination.append(bytes) }
            }
            return destination
        }
        let remaining = ContinuousClock.now.duration(to: deadline)
        let timer = MultiThreadedEventLoopGroup.singleton.any().scheduleTask(in: .nanoseconds(max(0, nanoseconds(remaining)))) {
            reader.cancel()
        }
        defer { timer.cancel() }
        do {
            return try await withTaskCancellationHandler {
                try await reader.value
            } onCancel: {
                reader.cancel()
            }
        } catch let failure as Failure {
            throw failure
        } catch {
            // Only the timer and our own cancellation cancel the reader.
            if error is CancellationError, !Task.isCancelled { throw .timedOut }
            throw failure(for: error)
        }
    }

    private static func failure(for error: any Error) -> Failure {
        if error is CancellationError || Task.isCancelled { return .cancelled }
        if let clientError = error as? HTTPClientError {
            switch clientError {
            case .deadlineExceeded, .readTimeout, .connectTimeout, .writeTimeout:
                return .timedOut
            case .cancelled:
                return .cancelled
            default:
                return .network(String(describing: clientError))
            }
        }
        return .network(reason(for: error))
    }

    /// A sentence for the usual ways a connection fails, instead of SwiftNIO's own text.
    static func reason(for error: any Error) -> String {
        switch error {
        case let connection as NIOConnectionError:
            if connection.dnsAError != nil || connection.dnsAAAAError != nil {
                return "the host name \(connection.host) could not be resolved"
            }
            if let failure = connection.connectionErrors.first {
                return reason(for: failure.error)
            }
            return "no connection could be made to \(connection.host) port \(connection.port)"
        case let io as IOError:
            switch io.errnoCode {
            case ECONNREFUSED: return "the connection was refused (nothing listens on that port)"
            case ECONNRESET: return "the connection was reset"
            case ENETUNREACH, EHOSTUNREACH: return "the host cannot be reached"
            default: return errnoDescription(io.errnoCode)
            }
        case is SocketAddressError:
            return "the host name could not be resolved"
        default:
            return String(describing: error)
        }
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}

/// Where a response's body goes as it arrives (``HTTPTransport/Exchange/read(into:)``): kept in
/// memory, dropped, or written to a file. Each buffer is handed on as it comes, so what is held
/// at once is the destination's business.
protocol ResponseBody: Sendable {
    /// Takes the next bytes of the body; throwing ``HTTPTransport/Failure/unwritable(_:)`` ends
    /// the reading.
    mutating func append(_ bytes: UnsafeRawBufferPointer) throws(HTTPTransport.Failure)
}

/// The whole body, in memory.
struct MemoryBody: ResponseBody {
    var bytes: [UInt8] = []

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        self.bytes.append(contentsOf: bytes)
    }
}

/// A body read only to its end (a redirect's, an error page's), then dropped.
struct DiscardedBody: ResponseBody {
    func append(_ bytes: UnsafeRawBufferPointer) {}
}
