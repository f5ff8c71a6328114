import SystemSupport

extension WebDriverSession {
    /// `GET /session/{id}/cookie`: the cookies of the current window's document, as the browser
    /// would send them to its address (`httpOnly` ones included).
    ///
    /// ```swift
    /// let names = try await session.cookies().map(\.name)
    /// ```
    public func cookies(timeout: Double? = nil) async throws(WebDriverError) -> [WebDriverCookie] {
        let value = try await command(.GET, "/cookie", body: nil, name: "get all cookies", timeout: timeout)
        guard let entries = value.arrayValue else { throw .malformedReply(command: "get all cookies", reason: "not a list") }
        return entries.compactMap(WebDriverCookie.init(json:))
    }

    /// `POST /session/{id}/cookie`: adds `cookie` for the current window's document; its domain,
    /// when given, must be that document's host or a domain above it.
    public func addCookie(_ cookie: WebDriverCookie, timeout: Double? = nil) async throws(WebDriverError) {
        _ = try await command(.POST, "/cookie", body: ["cookie": cookie.json], name: "add cookie", timeout: timeout)
    }

    /// `DELETE /session/{id}/cookie/{name}`: deletes the cookies named `name` that the current
    /// window's document sees.
    public func deleteCookie(named name: String, timeout: Double? = nil) async throws(WebDriverError) {
        _ = try await command(.DELETE, "/cookie/" + Self.pathSegment(name), body: nil, name: "delete cookie", timeout: timeout)
    }

    /// `text` as one segment of a URL path: every byte but the unreserved ones percent-encoded.
    static func pathSegment(_ text: String) -> String {
        var segment = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                segment.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                segment += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return segment
    }
}
