/// One response a ``LoopbackServer`` gives for a path: a body with its content type and any other
/// headers (a `Content-Security-Policy`, say).
///
/// ```swift
/// let server = try LoopbackServer(responses: [
///     "/": LoopbackResponse(html: "<title>Strict</title>", headers: ["Content-Security-Policy": "script-src 'self'"]),
///     "/app.js": LoopbackResponse(body: "document.title = 'x'", contentType: "text/javascript"),
/// ])
/// ```
public struct LoopbackResponse: Sendable {
    public let body: String
    public let contentType: String
    public let headers: [(name: String, value: String)]
    /// The status line's code and reason, `200 OK` unless told.
    public let status: String
    /// Seconds the server waits before it answers (a slow subresource that holds a page's load).
    public let delay: Double

    public init(body: String, contentType: String, headers: [String: String] = [:], status: String = "200 OK", delay: Double = 0) {
        self.body = body
        self.contentType = contentType
        self.headers = headers.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) }
        self.status = status
        self.delay = delay
    }

    /// An HTML page.
    public init(html: String, headers: [String: String] = [:]) {
        self.init(body: html, contentType: "text/html; charset=utf-8", headers: headers)
    }

    /// A `302 Found` to `location` (a path on the same server, or a whole URL).
    public init(redirectTo location: String) {
        self.init(body: "", contentType: "text/html; charset=utf-8", headers: ["Location": location], status: "302 Found")
    }
}
