import Foundation
import UserScripts

/// The name a `GM_download` is saved under, inside the downloads folder: the script's `name`
/// made safe, else the server's `Content-Disposition` file name, else the URL's last segment,
/// else `download`.
///
/// A name may keep subfolders (`covers/front.jpg`, as Tampermonkey allows); everything that would
/// leave the folder is taken out: `..` and `.` segments, a leading `/` (an absolute path), `\`
/// (read as `/`), empty segments. Control characters (C0, DEL, C1) and NUL are dropped, spaces
/// around each segment trimmed, and a segment longer than a file system allows (255 bytes) is
/// shortened, its extension kept. A name with nothing left falls back as above.
///
/// ```swift
/// DownloadName(requested: "../../etc/passwd", url: url).relativePath  // "etc/passwd"
/// DownloadName(requested: nil, url: try PageURL("https://example.com/a/report.pdf")).relativePath  // "report.pdf"
/// ```
public struct DownloadName: Sendable, Hashable {
    /// The segments, each a safe file or folder name; the last is the file's.
    public let segments: [String]
    /// Whether the script's `name` had to be changed (or was unusable and replaced).
    public let changed: Bool

    /// The longest segment, in UTF-8 bytes, that Linux file systems accept.
    static let maximumSegmentBytes = 255

    /// The name for a download of `url` that the script asked to save as `requested`.
    ///
    /// - Parameter suggested: The server's file name (`Content-Disposition`), used when the
    ///   script gave none.
    public init(requested: String?, url: PageURL?, suggested: String? = nil) {
        if let requested {
            let segments = Self.safeSegments(of: requested)
            if !segments.isEmpty {
                self.segments = segments
                changed = segments.joined(separator: "/") != requested
                return
            }
        }
        // A name from the server or the URL is a file name, never a path.
        let fallback = [suggested, url.flatMap { Self.lastSegment(of: $0.path) }].compactMap { $0 }
            .lazy.compactMap { Self.safeSegments(of: $0).last }.first
        segments = [fallback ?? "download"]
        changed = requested != nil
    }

    /// The name relative to the downloads folder, segments joined by `/`.
    public var relativePath: String { segments.joined(separator: "/") }

    /// The safe segments of `text`, in order.
    static func safeSegments(of text: String) -> [String] {
        let unified = String(String.UnicodeScalarView(text.unicodeScalars.compactMap { scalar -> Unicode.Scalar? in
            if scalar == "\\" { return "/" }
            return isControl(scalar) ? nil : scalar
        }))
        return unified.split(separator: "/", omittingEmptySubsequences: true).compactMap { part in
            let trimmed = part.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty, trimmed != ".", trimmed != ".." else { return nil }
            return shortened(trimmed)
        }
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// `segment` cut to ``maximumSegmentBytes`` on a character boundary, its extension kept.
    static func shortened(_ segment: String) -> String {
        guard segment.utf8.count > maximumSegmentBytes else { return segment }
        let split = FileNameParts(segment)
        let room = max(1, maximumSegmentBytes - split.extension.utf8.count)
        var stem = ""
        for character in split.stem {
            guard stem.utf8.count + String(character).utf8.count <= room else { break }
            stem.append(character)
        }
        return stem + split.extension
    }

    /// The last segment of a URL's path, percent-decoded.
    static func lastSegment(of path: String) -> String? {
        let withoutQuery = path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? path
        guard let last = withoutQuery.split(separator: "/").last else { return nil }
        return String(last).removingPercentEncoding ?? String(last)
    }
}

/// A file name cut into its stem and extension (`report`, `.pdf`; `archive`, `.tar.gz`; a
/// hidden file's leading dot belongs to the stem).
struct FileNameParts: Hashable {
    let stem: String
    let `extension`: String

    init(_ name: String) {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else {
            stem = name
            `extension` = ""
            return
        }
        var start = dot
        let before = name[..<dot]
        if before.lowercased().hasSuffix(".tar"), before.count > 4 { start = name.index(dot, offsetBy: -4) }
        stem = String(name[..<start])
        `extension` = String(name[start...])
    }
}
