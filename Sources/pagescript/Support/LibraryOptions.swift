import ArgumentParser
import Foundation
import UserScripts

/// `--library DIR`: where the user's scripts live (else `PAGESCRIPT_LIBRARY`, else the XDG data folder).
struct LibraryOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The script library folder (default: $PAGESCRIPT_LIBRARY, else $XDG_DATA_HOME/pagescript/scripts).", valueName: "folder"))
    var library: String?

    /// Opens the library, creating its folder when needed.
    func open() throws(LibraryError) -> ScriptLibrary {
        let location = try LibraryLocation.resolve(directory: library, environment: ProcessInfo.processInfo.environment)
        return try ScriptLibrary(directory: location.directory)
    }

    /// Opens the library for a command that only reads it. A folder the user named (with
    /// `--library` or `PAGESCRIPT_LIBRARY`) that does not exist is an error, not a new empty
    /// library: a typo must not look like a library with no scripts. The default folder is
    /// created as on first use. `reloadPolicy` says when the folder is looked at again.
    func openForReading(reloadPolicy: ReloadPolicy = .onEveryAccess) throws -> ScriptLibrary {
        let location = try LibraryLocation.resolve(directory: library, environment: ProcessInfo.processInfo.environment)
        if location.source == .explicit || location.source == .pagescriptLibraryVariable {
            var isFolder: ObjCBool = false
            let path = location.directory.path(percentEncoded: false)
            if !FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
                let origin = location.source == .explicit ? "--library" : "PAGESCRIPT_LIBRARY"
                throw CommandFailure.badInput(
                    "there is no script library at \(path) (from \(origin)); nothing was created. "
                    + "`pagescript scripts new` or `scripts import` there creates it")
            }
        }
        return try ScriptLibrary(directory: location.directory, reloadPolicy: reloadPolicy)
    }

    /// The library when its folder exists, for a look that must not create one (wherever the
    /// folder would be); `nil` otherwise.
    func existingLibrary() throws -> ScriptLibrary? {
        let location = try LibraryLocation.resolve(directory: library, environment: ProcessInfo.processInfo.environment)
        guard FileManager.default.fileExists(atPath: location.directory.path(percentEncoded: false)) else { return nil }
        return try ScriptLibrary(directory: location.directory)
    }
}

extension LibraryOptions {
    /// Refuses a `--library` that names a file (a script given where the folder goes); `hint`
    /// says what the user may have meant.
    func refuseFile(hint: String) throws {
        guard let library else { return }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: library, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw ValidationError("--library takes the script library's folder, and '\(library)' is a file; \(hint)")
        }
    }

    /// Opens the library, finds the script `reference` names (name, ID or ID prefix) and hands
    /// both to `body`.
    func withScript(_ reference: String, _ body: (ScriptLibrary, StoredScript) throws -> Void) throws {
        let library = try openForReading()
        try body(library, try library.find(reference))
    }
}
