import ArgumentParser
import Foundation
import UserScripts

/// `--library DIR`: where the user's scripts live (else `PAGESCRIPT_LIBRARY`, else the XDG data folder).
struct LibraryOptions: ParsableArguments {
    @Option(name: .long, help: "The script library folder (default: $PAGESCRIPT_LIBRARY, else $XDG_DATA_HOME/pagescript/scripts).")
    var library: String?

    /// Opens the library, creating its folder when needed.
    func open() throws(LibraryError) -> ScriptLibrary {
        let location = try LibraryLocation.resolve(directory: library, environment: ProcessInfo.processInfo.environment)
        return try ScriptLibrary(directory: location.directory)
    }
}

extension LibraryOptions {
    /// Opens the library, finds the script `reference` names (name, ID or ID prefix) and hands
    /// both to `body`.
    func withScript(_ reference: String, _ body: (ScriptLibrary, StoredScript) throws -> Void) throws {
        let library = try open()
        try body(library, try library.find(reference))
    }
}
