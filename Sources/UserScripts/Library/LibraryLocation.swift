import Foundation

/// Where the script library is, and why there.
///
/// The first of these wins:
/// 1. a directory the caller gives (the command line's `--library`),
/// 2. `PAGESCRIPT_LIBRARY`,
/// 3. `$XDG_DATA_HOME/pagescript/scripts` (only when `XDG_DATA_HOME` is an absolute path, as the
///    XDG specification requires),
/// 4. `~/.local/share/pagescript/scripts`.
///
/// Relative paths are resolved against the current directory, and a leading `~/` against `HOME`.
///
/// ```swift
/// let location = try LibraryLocation.resolve(directory: nil, environment: ProcessInfo.processInfo.environment)
/// let library = try ScriptLibrary(directory: location.directory)
/// ```
public struct LibraryLocation: Hashable, Sendable {
    /// What decided the location.
    public enum Source: Hashable, Sendable {
        /// The directory given by the caller.
        case explicit
        /// `PAGESCRIPT_LIBRARY`.
        case pagescriptLibraryVariable
        /// `XDG_DATA_HOME`.
        case xdgDataHome
        /// The default under `HOME`.
        case home
    }

    /// The library directory.
    public let directory: URL
    /// What decided it.
    public let source: Source

    /// Works out the library directory.
    ///
    /// - Parameters:
    ///   - directory: A directory given by the caller, which wins over the environment.
    ///   - environment: The environment variables to read (pass `ProcessInfo.processInfo.environment`).
    ///   - currentDirectory: What relative paths are relative to.
    public static func resolve(
        directory: String? = nil,
        environment: [String: String],
        currentDirectory: String = FileManager.default.currentDirectoryPath
    ) throws(LibraryError) -> LibraryLocation {
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 }
        func absolute(_ path: String) throws(LibraryError) -> URL {
            var expanded = path
            if path == "~" || path.hasPrefix("~/") {
                guard let home else { throw .noHomeDirectory }
                expanded = home + path.dropFirst()
            }
            if !expanded.hasPrefix("/") { expanded = currentDirectory + "/" + expanded }
            return URL(fileURLWithPath: expanded, isDirectory: true).standardizedFileURL
        }
        if let directory, !directory.isEmpty {
            return LibraryLocation(directory: try absolute(directory), source: .explicit)
        }
        if let variable = environment["PAGESCRIPT_LIBRARY"], !variable.isEmpty {
            return LibraryLocation(directory: try absolute(variable), source: .pagescriptLibraryVariable)
        }
        if let dataHome = environment["XDG_DATA_HOME"], dataHome.hasPrefix("/") {
            return LibraryLocation(directory: try absolute(dataHome + "/pagescript/scripts"), source: .xdgDataHome)
        }
        guard let home else { throw .noHomeDirectory }
        return LibraryLocation(directory: try absolute(home + "/.local/share/pagescript/scripts"), source: .home)
    }
}
