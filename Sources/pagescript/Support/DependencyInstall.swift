import Foundation
import GMAPI
import SystemSupport
import UserScripts

/// What `scripts import`, `scripts new` and `scripts update` do after writing a script: fetch
/// the `@require` and `@resource` files it declares into the library's cache, once, and say on
/// standard error what was fetched and what is missing.
enum DependencyInstall {
    /// Records each script's file as installed (so that `scripts update` can tell a local edit
    /// from the author's text), then fetches what the cache lacks.
    ///
    /// - Returns: Whether every declared file of every script is in the cache now.
    static func fetch(for scripts: [StoredScript], library: ScriptLibrary) async throws -> Bool {
        let cache = DependencyCache(libraryDirectory: library.directory)
        for stored in scripts {
            try cache.recordInstalled(Array(stored.script.text.utf8), for: stored.id, from: nil)
        }
        let declaring = scripts.filter { !ScriptDependency.declared(in: $0.script).isEmpty }
        guard !declaring.isEmpty else { return true }
        return try await DependencyFetcher.withFetcher(cache: cache) { fetcher in
            var complete = true
            for stored in declaring {
                let files = try await fetcher.fetch(for: stored.script, id: stored.id)
                printError("  \(stored.id) \(TerminalSafeText.escaped(stored.name)):")
                if !report(files) { complete = false }
            }
            return complete
        }
    }

    /// Prints the files fetched or failed (not those already cached); returns whether all are there.
    static func report(_ files: DependencyReport) -> Bool {
        for entry in files.entries {
            if case .alreadyCached = entry.outcome { continue }
            printError("    \(TerminalSafeText.escaped(entry.description))")
        }
        if !files.isComplete {
            printError("    the script does not run until these files are fetched: `pagescript scripts update` tries again")
        }
        return files.isComplete
    }
}
