import Foundation

/// Finds a folder of a target's resource bundle without SwiftPM's generated `Bundle.module`,
/// which stops the program with a fatal error when the bundle is missing (for example when the
/// executable was copied somewhere without it). `UserScripts` finds its examples with it and
/// `PageRuntime` its `Action.js`.
///
/// It looks where the generated accessor looks: next to the executable (`Bundle.main`) and, for a
/// program run from its build folder, in the build folder; then in the source folder the caller
/// names. A bundle is `<package>_<target>.resources` on Linux and `<package>_<target>.bundle` on
/// Apple platforms (with `Contents/Resources` inside on macOS).
public enum ResourceBundleLocator {
    private static let bundleExtensions = [".resources", ".bundle"]
    private static let insideBundle = ["", "/Contents/Resources"]

    /// The path of `folder` inside `target`'s resource bundle, or `nil`, and every place looked in.
    ///
    /// - Parameters:
    ///   - folder: The folder inside the bundle (`Scripts`, `Resources`).
    ///   - target: The target that owns the resources (`UserScripts`).
    ///   - bundleName: The bundle's name without extension; `nil` tries `PageScript_<target>`,
    ///     then any `<package>_<target>` bundle, so that the same code works in another package.
    ///   - sourceDirectory: The folder that holds `folder` in the sources: the last place looked.
    public static func locate(
        folder: String, target: String, bundleName: String? = nil, sourceDirectory: String
    ) -> (path: String?, searched: [String]) {
        var searched: [String] = []
        for directory in candidateDirectories() {
            for bundle in bundleNames(in: directory, target: target, preferred: bundleName) {
                for inside in insideBundle {
                    let path = directory + "/" + bundle + inside + "/" + folder
                    searched.append(path)
                    if isDirectory(path) { return (path, searched) }
                }
            }
        }
        // Built from source on this machine: the resources are still where they were copied from.
        let sourceFolder = sourceDirectory + "/" + folder
        searched.append(sourceFolder)
        if isDirectory(sourceFolder) { return (sourceFolder, searched) }
        return (nil, searched)
    }

    /// The folders a bundle may sit in: the main bundle's, the executable's (following symbolic
    /// links, so a linked `pagescript` finds its real folder), and the test bundle's parent.
    private static func candidateDirectories() -> [String] {
        var directories: [String] = []
        func add(_ url: URL?) {
            guard let url else { return }
            var path = url.standardizedFileURL.path(percentEncoded: false)
            while path.count > 1, path.hasSuffix("/") { path.removeLast() }
            if !directories.contains(path) { directories.append(path) }
        }
        add(Bundle.main.bundleURL)
        add(Bundle.main.resourceURL)
        add(Bundle.main.executableURL?.resolvingSymlinksInPath().deletingLastPathComponent())
        add(URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath().deletingLastPathComponent())
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            add(bundle.bundleURL.deletingLastPathComponent())
        }
        return directories
    }

    /// The bundle names to try in `directory`: the requested one, or the default name and then any
    /// `<package>_UserScripts` bundle present.
    private static func bundleNames(in directory: String, target: String, preferred: String?) -> [String] {
        let targetSuffix = "_" + target
        let bases = preferred.map { [$0] } ?? ["PageScript" + targetSuffix]
        var names = bases.flatMap { base in bundleExtensions.map { base + $0 } }
        if preferred == nil, let entries = try? FileSystem.listDirectory(atPath: directory) {
            for entry in entries.map(\.name).sorted() where entry.hasPrefix(".") == false {
                let matches = bundleExtensions.contains { entry.hasSuffix(targetSuffix + $0) }
                if matches, !names.contains(entry) { names.append(entry) }
            }
        }
        return names
    }

    private static func isDirectory(_ path: String) -> Bool {
        ((try? FileSystem.status(atPath: path)) ?? nil)?.isDirectory ?? false
    }
}
