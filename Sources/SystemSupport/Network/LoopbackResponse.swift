/// One request as a ``LoopbackServer`` received it.
public struct LoopbackRequest: Sendable {
    /// `GET`, `POST`, ...
    public let method: String
    /// The request target as sent: the path with its query.
    public let target: String
    /// The header fields, in the order they came.
    public let headers: [(name: String, value: String)]
    /// The body (read by `Content-Length`, or de-chunked).
    public let body: [UInt8]

    public init(method: String, target: String, headers: [(name: String, value: String)], body: [UInt8]) {
        self.method = method
        self.target = target
        self.headers = headers
        self.body = body
    }

    /// The target without its query.
    public var path: String {
        String(target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? "/")
    }

    /// The value of the header field `name` (any case).
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

/// What a ``LoopbackServer`` answers to one request: a status, headers and a body, sent whole
/// after an optional delay, or one of the faults a test needs (a page that never finishes, a
/// response that stalls after its head, a chunked stream).
///
/// ```swift
/// let server = try LoopbackServer(responses: [
///     "/": LoopbackResponse(html: "<title>Strict</title>", headers: ["Content-Security-Policy": "script-src 'self'"]),
///     "/app.js": LoopbackResponse(body: "document.title = 'x'", contentType: "text/javascript"),
///     "/gone": .page("<title>Gone</title>", status: 410),
/// ])
/// ```
public struct LoopbackResponse: Sendable {
    /// How the body goes out.
    public enum Delivery: Sendable {
        /// Whole, with `Content-Length`.
        case whole
        /// The head and the body's start with a `Content-Length` it never reaches, then nothing
        /// until the client gives up or the server stops.
        case stalls
        /// `count` chunks of `size` bytes with chunked transfer encoding.
        case chunked(size: Int, count: Int)
        /// The head and the body's first `bytes`, then, `seconds` later, the rest (a document
        /// the browser shows while it is still being parsed).
        case pauses(after: Int, seconds: Double)
    }

    /// The status code.
    public let status: Int
    /// The header fields, `Content-Type` among them when there is one.
    public let headers: [(name: String, value: String)]
    /// The body.
    public let body: [UInt8]
    /// Seconds the server waits before it answers (a slow subresource that holds a page's load).
    public let delay: Double
    /// How the body goes out.
    public let delivery: Delivery

    /// A response of `status` with exactly these `headers` and `body`.
    public init(status: Int, headers: [(String, String)], body: [UInt8], delay: Double = 0, delivery: Delivery = .whole) {
        self.status = status
        self.headers = headers.map { (name: $0.0, value: $0.1) }
        self.body = body
        self.delay = delay
        self.delivery = delivery
    }

    /// `body` as `contentType`, with `headers` (sorted by name) after it.
    public init(body: String, contentType: String, headers: [String: String] = [:], status: Int = 200, delay: Double = 0) {
        self.init(status: status, headers: [("Content-Type", contentType)] + headers.sorted { $0.key < $1.key }.map { ($0.key, $0.value) },
                  body: Array(body.utf8), delay: delay)
    }

    /// An HTML page.
    public init(html: String, headers: [String: String] = [:]) {
        self.init(body: html, contentType: "text/html; charset=utf-8", headers: headers)
    }

    /// A `302 Found` to `location` (a path on the same server, or a whole URL).
    public init(redirectTo location: String) {
        self.init(status: 302, headers: [("Location", location)], body: [])
    }

    /// An HTML page with `status`, sent after `delay` seconds.
    public static func page(_ html: String, status: Int = 200, delay: Double = 0) -> LoopbackResponse {
        LoopbackResponse(status: status, headers: [("Content-Type", "text/html; charset=utf-8")], body: Array(html.utf8), delay: delay)
    }

    /// Text of `type`, with more `headers`.
    public static func text(_ text: String, status: Int = 200, type: String = "text/plain; charset=utf-8",
                            headers: [(String, String)] = []) -> LoopbackResponse {
        LoopbackResponse(status: status, headers: [("Content-Type", type)] + headers, body: Array(text.utf8))
    }

    /// A redirect to `location`.
    public static func redirect(_ location: String, status: Int = 302) -> LoopbackResponse {
        LoopbackResponse(status: status, headers: [("Location", location)], body: [])
    }

    /// `404 Not Found`, in HTML.
    public static let notFound = page("<title>Not found</title>", status: 404)

    /// An HTML page whose start arrives and whose end never does: a page that never finishes
    /// loading.
    public static func neverFinishes(_ start: String) -> LoopbackResponse {
        LoopbackResponse(status: 200, headers: [("Content-Type", "text/html; charset=utf-8")], body: Array(start.utf8), delivery: .stalls)
    }

    /// The head and a few bytes, then nothing: a server that stalls mid-response.
    public static func headThenStall(status: Int = 200, headers: [(String, String)] = []) -> LoopbackResponse {
        LoopbackResponse(status: status, headers: headers, body: Array("partial".utf8), delivery: .stalls)
    }

    /// `count` chunks of `chunkSize` bytes of `x`, with chunked transfer encoding.
    public static func chunked(chunkSize: Int, count: Int) -> LoopbackResponse {
        LoopbackResponse(status: 200, headers: [("Content-Type", "application/octet-stream")], body: [], delivery: .chunked(size: chunkSize, count: count))
    }

    /// The status line's reason phrase.
    var reason: String {
        switch status {
        case 200: "OK"
        case 204: "No Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        default: "Status"
        }
    }
}
