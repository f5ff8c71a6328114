import Foundation
import SystemSupport

/// The response of a `GM_xmlhttpRequest`, as the script's `onload` sees it.
///
/// ``json`` is the object the page hands to `onload`:
///
/// ```json
/// {"callback": "onload", "status": 200, "statusText": "OK", "readyState": 4,
///  "responseHeaders": "content-type: application/json\r\n", "finalUrl": "https://api.example.com/v1",
///  "responseType": "json", "responseText": "{\"a\":1}", "response": {"a": 1}}
/// ```
///
/// For `arraybuffer` and `blob` the body travels as `"responseBase64"` (with `"contentType"`), and
/// the page rebuilds the `ArrayBuffer` or `Blob`; there is no `responseText` then.
public struct GMResponse: Sendable, Hashable {
    /// The HTTP status (`200`).
    public let status: Int
    /// The reason phrase (`OK`).
    public let statusText: String
    /// The response headers as received, in order.
    public let headers: [GMHeaderField]
    /// The URL of the response, after redirects.
    public let finalURL: String
    /// The body, whole.
    public let body: [UInt8]
    /// How the body reaches the page.
    public let responseType: GMResponseType
    /// The request's `overrideMimeType`, which decides the charset when given.
    public let overrideMimeType: String?

    /// A response.
    public init(
        status: Int,
        statusText: String,
        headers: [GMHeaderField],
        finalURL: String,
        body: [UInt8],
        responseType: GMResponseType = .text,
        overrideMimeType: String? = nil
    ) {
        self.status = status
        self.statusText = statusText
        self.headers = headers
        self.finalURL = finalURL
        self.body = body
        self.responseType = responseType
        self.overrideMimeType = overrideMimeType
    }

    /// The headers as `XMLHttpRequest.getAllResponseHeaders()` gives them: names lowercased and
    /// sorted, repeated headers combined with `, `, each line ended by CRLF; `Set-Cookie` is left
    /// out, as browsers leave it out.
    public var responseHeaders: String {
        var combined: [String: String] = [:]
        for header in headers {
            let name = header.name.lowercased()
            guard name != "set-cookie", name != "set-cookie2" else { continue }
            combined[name] = combined[name].map { $0 + ", " + header.value } ?? header.value
        }
        return combined.keys.sorted().map { "\($0): \(combined[$0] ?? "")\r\n" }.joined()
    }

    /// The value of the first header called `name` (without regard to case).
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The MIME type the body is read as: `overrideMimeType`, else `Content-Type`, else empty.
    public var mimeType: String {
        overrideMimeType ?? header("content-type") ?? ""
    }

    /// The body as text, decoded with the charset of ``mimeType`` (UTF-8 when none is named or it
    /// is not one PageScript knows; `ISO-8859-1`, `US-ASCII` and `windows-1252` are read as
    /// windows-1252, as browsers do). A UTF-8 byte order mark is dropped.
    public var text: String {
        let charset = Self.parameter("charset", in: mimeType)?.lowercased()
        switch charset {
        case "iso-8859-1", "latin1", "us-ascii", "ascii", "windows-1252", "cp1252":
            return String(data: Data(body), encoding: .windowsCP1252) ?? String(decoding: body, as: UTF8.self)
        default:
            let bytes = body.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(body.dropFirst(3)) : body
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// The object the page hands to `onload` (see the type's discussion).
    public var json: JSONValue {
        var pairs: [(key: String, value: JSONValue)] = [
            ("callback", "onload"),
            ("status", .integer(Int64(status))),
            ("statusText", .string(statusText)),
            ("readyState", 4),
            ("responseHeaders", .string(responseHeaders)),
            ("finalUrl", .string(finalURL)),
            ("responseType", .string(responseType.rawValue)),
        ]
        switch responseType {
        case .text, .document:
            let text = text
            pairs.append(("responseText", .string(text)))
            pairs.append(("response", .string(text)))
        case .json:
            let text = text
            pairs.append(("responseText", .string(text)))
            pairs.append(("response", (try? JSONValue(parsing: text)) ?? .null))
        case .arrayBuffer, .blob:
            pairs.append(("responseBase64", .string(Data(body).base64EncodedString())))
            pairs.append(("contentType", .string(mimeType)))
        }
        return .object(pairs)
    }

    /// A parameter of a MIME type (`charset` in `text/html; charset="UTF-8"`), unquoted.
    static func parameter(_ name: String, in mimeType: String) -> String? {
        for part in mimeType.split(separator: ";").dropFirst() {
            let pieces = part.split(separator: "=", maxSplits: 1)
            guard pieces.count == 2, pieces[0].trimmingCharacters(in: .whitespaces).lowercased() == name else { continue }
            var value = pieces[1].trimmingCharacters(in: .whitespaces)
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
            return value
        }
        return nil
    }
}
