import Foundation
import SystemSupport

/// The `details` of one `GM_xmlhttpRequest` / `GM.xmlHttpRequest` call, as PageScript performs it.
///
/// The page sends the details as JSON (``init(json:)``), with the callbacks left behind in the
/// page:
///
/// ```json
/// {"method": "POST", "url": "https://api.example.com/v1", "headers": {"Content-Type": "application/json"},
///  "data": "{\"q\":1}", "timeout": 5000, "responseType": "json", "anonymous": false,
///  "user": "me", "password": "secret", "redirect": "follow", "overrideMimeType": "text/plain; charset=utf-8"}
/// ```
///
/// `data` is text (sent as UTF-8); a binary body (`ArrayBuffer`, typed array, `Blob`) travels as
/// `"dataBase64"`. `timeout` is in milliseconds (absent or 0: the performer's default), as in
/// the managers. `url` may be relative to the page.
public struct GMRequest: Sendable, Hashable {
    /// The method, uppercased for the standard ones (`GET`, `POST`, ...).
    public var method: String
    /// The URL as the script gave it; relative URLs are read against the page's.
    public var url: String
    /// Request headers in the order given.
    public var headers: [GMHeaderField]
    /// The request body; ignored for `GET` and `HEAD`, as by `XMLHttpRequest`.
    public var body: [UInt8]?
    /// Whether ``body`` came as text (then a missing `Content-Type` becomes
    /// `text/plain;charset=UTF-8`, as `XMLHttpRequest` sends it).
    public var bodyIsText: Bool
    /// The timeout in seconds, or `nil` for the performer's default.
    public var timeout: Double?
    /// How the response body reaches the page.
    public var responseType: GMResponseType
    /// `anonymous: true`: send no cookie and no credentials.
    public var anonymous: Bool
    /// `user` and `password`: sent as HTTP Basic authentication to the first URL's origin.
    public var user: String?
    /// See ``user``.
    public var password: String?
    /// `cookie`: a `Cookie` header for the first URL's origin (PageScript has no cookie jar of its own).
    public var cookie: String?
    /// What to do with redirects.
    public var redirect: GMRedirectMode
    /// `overrideMimeType`: the type (and charset) to read the body as, whatever the server said.
    public var overrideMimeType: String?

    /// A request with the given parts; everything else as the managers default it.
    public init(
        method: String = "GET",
        url: String,
        headers: [GMHeaderField] = [],
        body: [UInt8]? = nil,
        bodyIsText: Bool = false,
        timeout: Double? = nil,
        responseType: GMResponseType = .text,
        anonymous: Bool = false,
        user: String? = nil,
        password: String? = nil,
        cookie: String? = nil,
        redirect: GMRedirectMode = .follow,
        overrideMimeType: String? = nil
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.bodyIsText = bodyIsText
        self.timeout = timeout
        self.responseType = responseType
        self.anonymous = anonymous
        self.user = user
        self.password = password
        self.cookie = cookie
        self.redirect = redirect
        self.overrideMimeType = overrideMimeType
    }

    /// Reads the details the page sent (see the type's discussion).
    ///
    /// - Throws: ``GMRequestFailure/invalidRequest(_:)`` for a missing URL, a method or header that
    ///   is not an HTTP token, a header value with a line break, or base64 that does not decode.
    public init(json: JSONValue) throws(GMRequestFailure) {
        guard case .object = json else { throw .invalidRequest("the details must be an object") }
        guard let url = json["url"]?.stringValue else { throw .invalidRequest("`url` is missing") }
        let method = (json["method"]?.stringValue ?? "GET")
        var headers: [GMHeaderField] = []
        if let value = json["headers"], !value.isNull {
            guard case .object(let pairs) = value else { throw .invalidRequest("`headers` must be an object of names to values") }
            for pair in pairs {
                let text: String
                switch pair.value {
                case .string(let string): text = string
                case .integer, .number, .bool: text = pair.value.serialized
                case .null: continue
                default: throw .invalidRequest("the value of header `\(pair.key)` must be a string")
                }
                headers.append(GMHeaderField(name: pair.key, value: text))
            }
        }
        var body: [UInt8]?
        var bodyIsText = false
        if let base64 = json["dataBase64"]?.stringValue {
            guard let data = Data(base64Encoded: base64) else { throw .invalidRequest("`dataBase64` is not valid base64") }
            body = Array(data)
        } else if let text = json["data"]?.stringValue {
            body = Array(text.utf8)
            bodyIsText = true
        }
        var timeout: Double?
        switch json["timeout"] {
        case .integer(let milliseconds)? where milliseconds > 0: timeout = Double(milliseconds) / 1000
        case .number(let milliseconds)? where milliseconds > 0 && milliseconds.isFinite: timeout = milliseconds / 1000
        default: timeout = nil
        }
        let redirectText = json["redirect"]?.stringValue ?? "follow"
        guard let redirect = GMRedirectMode(rawValue: redirectText) else {
            throw .invalidRequest("`redirect` must be \"follow\", \"error\" or \"manual\", not \"\(redirectText)\"")
        }
        self.init(
            method: method,
            url: url,
            headers: headers,
            body: body,
            bodyIsText: bodyIsText,
            timeout: timeout,
            responseType: GMResponseType(pageValue: json["responseType"]?.stringValue),
            anonymous: json["anonymous"] == .bool(true),
            user: json["user"]?.stringValue,
            password: json["password"]?.stringValue,
            cookie: json["cookie"]?.stringValue,
            redirect: redirect,
            overrideMimeType: json["overrideMimeType"]?.stringValue
        )
        try validate()
    }

    /// The method as it goes on the wire: the standard methods uppercased, as `XMLHttpRequest`
    /// normalises them.
    var normalizedMethod: String {
        let upper = method.uppercased()
        return ["DELETE", "GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH"].contains(upper) ? upper : method
    }

    /// Refuses what would let a script smuggle a second request or header into the one it makes.
    func validate() throws(GMRequestFailure) {
        guard !method.isEmpty, method.utf8.allSatisfy(GMHeaderField.isTokenByte) else {
            throw .invalidRequest("the method `\(method)` is not an HTTP token")
        }
        guard !["CONNECT", "TRACE", "TRACK"].contains(method.uppercased()) else {
            throw .invalidRequest("the method \(method.uppercased()) is not allowed (as in XMLHttpRequest)")
        }
        for header in headers {
            guard !header.name.isEmpty, header.name.utf8.allSatisfy(GMHeaderField.isTokenByte) else {
                throw .invalidRequest("the header name `\(header.name)` is not an HTTP token")
            }
            guard !header.value.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D || $0 == 0x00 }) else {
                throw .invalidRequest("the value of header `\(header.name)` contains a line break")
            }
        }
        for (label, value) in [("user", user), ("password", password), ("cookie", cookie)] {
            if let value, value.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D || $0 == 0x00 }) {
                throw .invalidRequest("`\(label)` contains a line break")
            }
        }
    }
}
