import Foundation
import SystemSupport

/// A folder of files served on loopback as a web host serves a static site, every HTML page under
/// a strict Content-Security-Policy: the site of the real-page batch rows (``RealPageBenchmark``).
///
/// A path names the file at that place under the folder (a folder's path with its final `/`, its
/// `index.html`); one that climbs out of the folder (`..`) or names no file gets a 404. Each file
/// is read the first time it is asked for and kept in memory after, so that the disk is not part
/// of what the rows time. Every HTML page carries ``contentSecurityPolicy``, which allows scripts,
/// styles and everything else from the site's own files only: the pages' inline scripts and styles
/// do not run, and a tool's script has to run in the page without lifting the policy. The other
/// files (scripts, style sheets, images) may be kept by the browser for an hour, as a
/// documentation host lets it keep them.
///
/// ```swift
/// let site = try StaticSite(serving: URL(fileURLWithPath: "/usr/share/doc/python3.11/html"))
/// defer { site.stop() }
/// let urls = site.pageURLs   // every .html file, sorted by path
/// ```
public final class StaticSite: Sendable {
    /// The policy of every HTML page.
    public static let contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'"

    /// The folder served.
    public let folder: URL
    /// Every HTML file under the folder, as a path on the site (`/library/json.html`), in the
    /// order of their paths (byte by byte); hidden files and folders left out.
    public let pagePaths: [String]
    private let files: FileCache
    private let server: LoopbackServer

    /// Lists the folder's pages and starts serving it on a free loopback port.
    ///
    /// - Throws: ``BenchmarkError/fixture(reason:)`` when the folder cannot be read or the server
    ///   cannot listen.
    public init(serving folder: URL) throws(BenchmarkError) {
        self.folder = folder
        pagePaths = try Self.pagePaths(in: folder)
        let files = FileCache(root: folder.path(percentEncoded: false))
        self.files = files
        do {
            server = try LoopbackServer { request in Self.response(to: request, from: files) }
        } catch {
            throw .fixture(reason: "cannot serve \(folder.path(percentEncoded: false)) on loopback: \(error)")
        }
    }

    /// The URL of every page, in ``pagePaths``'s order.
    public var pageURLs: [String] {
        pagePaths.map(url)
    }

    /// The URL of `path` (a path on the site, such as `/library/json.html`).
    public func url(_ path: String) -> String {
        server.url(path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path)
    }

    /// Stops serving.
    public func stop() {
        server.stop()
    }

    /// Every `.html` file under `folder`, as a path on the site, sorted byte by byte.
    static func pagePaths(in folder: URL) throws(BenchmarkError) -> [String] {
        let root = folder.path(percentEncoded: false)
        let subpaths: [String]
        do {
            subpaths = try FileManager.default.subpathsOfDirectory(atPath: root)
        } catch {
            throw .fixture(reason: "cannot list \(root): \(error)")
        }
        return subpaths
            .filter { path in
                var isFolder: ObjCBool = false
                return path.hasSuffix(".html") && !path.split(separator: "/").contains { $0.hasPrefix(".") }
                    && FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isFolder) && !isFolder.boolValue
            }
            .map { "/" + $0 }
            .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// What the site answers to `request`: the file its path names, or a 404.
    static func response(to request: LoopbackRequest, from files: FileCache) -> LoopbackResponse {
        guard request.method == "GET" || request.method == "HEAD",
              let decoded = request.path.removingPercentEncoding, decoded.hasPrefix("/") else { return .notFound }
        let components = decoded.split(separator: "/", omittingEmptySubsequences: true)
        guard !components.contains(where: { $0 == ".." || $0 == "." }) else { return .notFound }
        var path = components.joined(separator: "/")
        if decoded.hasSuffix("/") { path += path.isEmpty ? "index.html" : "/index.html" }
        guard let body = files.contents(of: path) else { return .notFound }
        let type = contentType(of: path)
        var headers = [("Content-Type", type)]
        if type.hasPrefix("text/html") {
            headers.append(("Content-Security-Policy", contentSecurityPolicy))
        } else {
            headers.append(("Cache-Control", "max-age=3600"))
        }
        return LoopbackResponse(status: 200, headers: headers, body: body)
    }

    /// The `Content-Type` of a file, by its extension.
    static func contentType(of path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let suffix = name.contains(".") ? String(name.split(separator: ".").last ?? "").lowercased() : ""
        return switch suffix {
        case "html", "htm": "text/html; charset=utf-8"
        case "js", "mjs": "text/javascript; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "json", "map": "application/json"
        case "txt": "text/plain; charset=utf-8"
        case "xml": "application/xml"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        case "jpg", "jpeg": "image/jpeg"
        case "gif": "image/gif"
        case "ico": "image/x-icon"
        case "webp": "image/webp"
        case "woff": "font/woff"
        case "woff2": "font/woff2"
        default: "application/octet-stream"
        }
    }

    /// The files read so far, by their path under the root; shared by the server's threads.
    final class FileCache: @unchecked Sendable {
        private let root: String
        private let lock = NSLock()
        private var read: [String: [UInt8]] = [:]

        init(root: String) {
            self.root = root
        }

        /// The bytes of the regular file at `path` under the root (symbolic links followed, as a
        /// web server follows the ones a package installs); `nil` for a folder or no file.
        func contents(of path: String) -> [UInt8]? {
            if let known = lock.withLock({ read[path] }) { return known }
            var isFolder: ObjCBool = false
            let full = root + "/" + path
            guard FileManager.default.fileExists(atPath: full, isDirectory: &isFolder), !isFolder.boolValue,
                  let data = FileManager.default.contents(atPath: full) else { return nil }
            let bytes = [UInt8](data)
            lock.withLock { read[path] = bytes }
            return bytes
        }
    }
}
