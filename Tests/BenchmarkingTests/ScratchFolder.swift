import Foundation

/// A fresh folder of the system's temporary directory for one test, which removes it when done.
///
/// ```swift
/// let folder = try ScratchFolder.make("pagescript-playwright-test")
/// defer { try? FileManager.default.removeItem(at: folder) }
/// ```
enum ScratchFolder {
    /// Creates `<tmp>/<prefix>-<pid>-<random>`.
    static func make(_ prefix: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(prefix)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }
}
