import Foundation

/// A fetched `@require` or `@resource` file, read from the cache for a run.
///
/// ```swift
/// let files = try cache.runFiles(for: stored.script, id: stored.id)
/// for require in files.requires { run(require.text) }              // in order, before the script
/// files.resource(named: "css")?.text                               // GM_getResourceText("css")
/// files.resource(named: "logo")?.dataURL                           // GM_getResourceURL("logo")
/// ```
public struct FetchedFile: Sendable, Hashable {
    /// The line it was declared by.
    public let dependency: ScriptDependency
    /// The URL the file finally came from (after redirects).
    public let fetchedFrom: String
    /// The SHA-256 of the content, lowercase hex (also its name in the cache).
    public let sha256: String
    /// The `Content-Type` the server sent, if any.
    public let contentType: String?
    /// The content.
    public let bytes: [UInt8]

    /// The content as text: UTF-8 (a byte order mark dropped), or windows-1252 when it is not
    /// UTF-8, as a browser reads a script without a charset.
    public var text: String {
        let content = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        if let utf8 = String(validating: content, as: UTF8.self) { return utf8 }
        return String(data: Data(content), encoding: .windowsCP1252) ?? String(decoding: content, as: UTF8.self)
    }

    /// The MIME type for ``dataURL``: the server's `Content-Type` without parameters, else one
    /// guessed from the URL's extension, else `application/octet-stream`.
    public var mimeType: String {
        if let contentType, let type = contentType.split(separator: ";").first?.trimmingCharacters(in: .whitespaces), !type.isEmpty {
            return type.lowercased()
        }
        return Self.mimeType(forPath: fetchedFrom)
    }

    /// `data:<type>;base64,<content>`: what `GM_getResourceURL` returns.
    public var dataURL: String {
        "data:\(mimeType);base64," + Data(bytes).base64EncodedString()
    }

    static func mimeType(forPath url: String) -> String {
        let path = url.split(separator: "?", maxSplits: 1).first.map(String.init) ?? url
        let fileExtension = path.split(separator: ".").last.map { $0.lowercased() } ?? ""
        switch fileExtension {
        case "js", "mjs": return "text/javascript"
        case "css": return "text/css"
        case "json": return "application/json"
        case "html", "htm": return "text/html"
        case "txt": return "text/plain"
        case "xml": return "application/xml"
        case "svg": return "image/svg+xml"
        case "png": return "image/png"
        case "jpg", "jpeg": return "image/jpeg"
        case "gif": return "image/gif"
        case "webp": return "image/webp"
        case "ico": return "image/x-icon"
        case "woff": return "font/woff"
        case "woff2": return "font/woff2"
        default: return "application/octet-stream"
        }
    }
}
