import Foundation

/// A fresh folder under the system's temporary directory, removed with everything in it when the
/// value is released, so tests work on real files without leaving any behind.
final class TemporaryDirectory: Sendable {
    let url: URL
    var path: String { url.path(percentEncoded: false) }

    init(_ label: String = "gmapi") throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(label)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// A path inside the folder.
    func file(_ name: String) -> URL {
        url.appendingPathComponent(name)
    }

    /// Writes `text` to `name` inside the folder (creating subfolders) and returns its URL.
    @discardableResult
    func write(_ text: String, to name: String) throws -> URL {
        let target = file(name)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: target)
        return target
    }

    func read(_ name: String) throws -> String {
        try String(contentsOf: file(name), encoding: .utf8)
    }

    /// The names of the folder's entries (or a subfolder's), hidden ones included, sorted.
    func entries(_ subfolder: String? = nil) throws -> [String] {
        let folder = subfolder.map { file($0) } ?? url
        return try FileManager.default.contentsOfDirectory(atPath: folder.path(percentEncoded: false)).sorted()
    }
}
