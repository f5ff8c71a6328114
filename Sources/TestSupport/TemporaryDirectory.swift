import Foundation

/// A fresh folder under the system's temporary directory, removed with everything in it when the
/// value is released, so tests work on real files without leaving any behind.
///
/// ```swift
/// let folder = try TemporaryDirectory("library")
/// try folder.write("// ==UserScript==", to: "a.user.js")
/// ```
public final class TemporaryDirectory: Sendable {
    /// The folder.
    public let url: URL
    /// The folder's path.
    public var path: String { url.path(percentEncoded: false) }

    /// Creates an empty folder whose name starts with `label`.
    public init(_ label: String = "pagescript") throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(label)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// A path inside the folder.
    public func file(_ name: String) -> URL {
        url.appendingPathComponent(name)
    }

    /// Writes `text` to `name` inside the folder (creating subfolders) and returns its URL.
    @discardableResult
    public func write(_ text: String, to name: String) throws -> URL {
        try write(Array(text.utf8), to: name)
    }

    /// Writes `bytes` to `name` inside the folder (creating subfolders) and returns its URL.
    @discardableResult
    public func write(_ bytes: [UInt8], to name: String) throws -> URL {
        let target = file(name)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: target)
        return target
    }

    /// The path of `name` inside the folder (`library` for a library folder).
    public func path(_ name: String) -> String {
        file(name).path(percentEncoded: false)
    }

    /// The text of `name` inside the folder.
    public func read(_ name: String) throws -> String {
        try String(contentsOf: file(name), encoding: .utf8)
    }

    /// The names of the folder's entries (or a subfolder's), hidden ones included, sorted.
    public func entries(_ subfolder: String? = nil) throws -> [String] {
        let folder = subfolder.map { file($0) } ?? url
        return try FileManager.default.contentsOfDirectory(atPath: folder.path(percentEncoded: false)).sorted()
    }
}
