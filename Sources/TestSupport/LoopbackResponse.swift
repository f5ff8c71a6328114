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

    public init(body: String, contentType: String, headers: [String: String] = [:]) {
        self.body = body
        self.contentType = contentType
        self.headers = headers.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) }
    }

    /// An HTML page.
    public init(html: String, headers: [String: String] = [:]) {
        self.init(body: html, contentType: "text/html; charset=utf-8", headers: headers)
    }
}
