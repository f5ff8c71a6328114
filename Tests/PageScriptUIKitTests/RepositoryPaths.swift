import Foundation

/// Where the repository's files are, found from this source file's path so the tests read the
/// checked-out files themselves, wherever the repository is.
enum RepositoryPaths {
    /// The repository root: this file is `Tests/PageScriptUIKitTests/RepositoryPaths.swift`.
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The folder holding the XcodeGen spec, which its paths are relative to.
    static let apple = root.appendingPathComponent("Apple", isDirectory: true)

    /// The XcodeGen spec.
    static let xcodeGenSpec = apple.appendingPathComponent("project.yml")

    /// The PageRuntime module's Action.js, the one file the extension must ship.
    static let pageRuntimeActionScript = root.appendingPathComponent("Sources/PageRuntime/Resources/Action.js")

    /// The UIKit layer's sources.
    static let pageScriptUIKit = root.appendingPathComponent("Sources/PageScriptUIKit", isDirectory: true)

    /// The files under `folder` whose names end in `suffix`, sorted by path.
    static func files(under folder: URL, endingIn suffix: String) -> [URL] {
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        var found: [URL] = []
        while let url = enumerator?.nextObject() as? URL {
            if url.lastPathComponent.hasSuffix(suffix) {
                found.append(url)
            }
        }
        return found.sorted { $0.path < $1.path }
    }
}
