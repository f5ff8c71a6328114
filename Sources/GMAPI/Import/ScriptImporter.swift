import Foundation
import UserScripts

/// `pagescript scripts import SOURCE`: userscripts into the library, from a file, a folder, an
/// address or a manager's backup, each imported the way ``ScriptLibrary/importScripts(from:)``
/// imports a file (byte for byte; a script with an installed `@name` and `@namespace` replaces
/// it and keeps its ID and values).
///
/// - **A file or a folder** of `.user.js` files: as the library imports them.
/// - **An http or https address**: the script is downloaded (redirects followed as for
///   `@require` files, within ``DependencyFetcher/Configuration``), must be UTF-8 and have a
///   `// ==UserScript==` block, and is then imported as a file is. The address is recorded
///   (``DependencyCache/recordInstalled(_:for:from:)``), and `scripts update` checks it for a new
///   version when the script names no `@downloadURL`, as the managers use the address they
///   installed from. Any failure throws before anything is written.
/// - **A `.zip` file**: a Violentmonkey or Tampermonkey backup (`ManagerBackup`), read and
///   checked whole before anything is written. Each script is imported as a file is; its values
///   are written into ``ScriptValueStore`` (a value the library already had under the same key
///   is replaced, and the entry's notes say what it was), its enabled switch is set as in the
///   backup, and the address its manager installed it from is recorded. What PageScript has no
///   place for is named in the notes. A zip of `.user.js` files from elsewhere is imported as
///   a folder would be.
///
/// Every script written is recorded as installed, so that `scripts update` can tell the
/// author's text from a local edit; then its `@require` and `@resource` files are fetched,
/// unless `fetchingFiles` is off.
///
/// ```swift
/// let importer = ScriptImporter(library: library)
/// let result = try await importer.importScripts(from: "https://example.com/tidy.user.js")
/// ```
public struct ScriptImporter: Sendable {
    /// The library scripts go into.
    public let library: ScriptLibrary
    /// The limits of every download: the script's own and its files'.
    public let configuration: DependencyFetcher.Configuration
    let limits: ZipArchive.Limits

    /// The largest backup read.
    static let maximumBackupBytes = 256 * 1024 * 1024

    /// An importer into `library`, downloading within `configuration`.
    public init(library: ScriptLibrary, configuration: DependencyFetcher.Configuration = DependencyFetcher.Configuration()) {
        self.init(library: library, configuration: configuration, limits: ZipArchive.Limits())
    }

    init(library: ScriptLibrary, configuration: DependencyFetcher.Configuration, limits: ZipArchive.Limits) {
        self.library = library
        self.configuration = configuration
        self.limits = limits
    }

    /// Imports everything `source` holds (see the type's discussion).
    ///
    /// - Parameters:
    ///   - source: A file's or folder's path, an http or https address, or a backup's path.
    ///   - fetchingFiles: Whether to fetch the scripts' `@require` and `@resource` files now.
    /// - Throws: When nothing could be imported: the source cannot be read, the download
    ///   failed, or the backup is damaged. A single script that is refused is in the result.
    public func importScripts(from source: String, fetchingFiles: Bool = true) async throws(ScriptImportError) -> ScriptImportResult {
        let cache = DependencyCache(libraryDirectory: library.directory)
        let fetcher = DependencyFetcher(cache: cache, configuration: configuration)
        do {
            let result = try await importScripts(from: source, fetchingFiles: fetchingFiles, fetcher: fetcher)
            await fetcher.shutdown()
            return result
        } catch {
            await fetcher.shutdown()
            throw error
        }
    }

    private func importScripts(from source: String, fetchingFiles: Bool, fetcher: DependencyFetcher) async throws(ScriptImportError) -> ScriptImportResult {
        var notes: [String] = []
        var entries: [ScriptImportResult.Entry] = []
        if let address = try Self.address(in: source) {
            let bytes = try await download(address, with: fetcher)
            let entry = try wrapped { () throws(LibraryError) in
                try library.importScript(bytes: bytes, source: URL(string: address) ?? URL(fileURLWithPath: address))
            }
            try recordInstalled(entry, bytes: bytes, from: address, in: fetcher.cache)
            entries = [ScriptImportResult.Entry(report: entry, notes: [])]
        } else if try Self.isBackup(atPath: source) {
            (notes, entries) = try restoreBackup(atPath: source, cache: fetcher.cache)
        } else {
            let report = try wrapped { () throws(LibraryError) in try library.importScripts(from: URL(fileURLWithPath: source)) }
            for entry in report.entries {
                try recordInstalled(entry, bytes: nil, from: nil, in: fetcher.cache)
                entries.append(ScriptImportResult.Entry(report: entry, notes: []))
            }
        }
        var fetched: [ScriptImportResult.Fetched] = []
        if fetchingFiles {
            for stored in ImportReport(entries: entries.map(\.report)).imported where !ScriptDependency.declared(in: stored.script).isEmpty {
                do {
                    fetched.append(ScriptImportResult.Fetched(script: stored, files: try await fetcher.fetch(for: stored.script, id: stored.id)))
                } catch {
                    throw .storage(error.description)
                }
            }
        }
        let problems = try wrapped { () throws(LibraryError) in try library.problems() }.filter { $0.path == library.publicSuffixListPath }
        return ScriptImportResult(notes: notes, entries: entries, fetched: fetched, problems: problems)
    }

    /// Records a script the import wrote as installed, with the address it came from: a new
    /// script or version always (`from` is `nil` for a file), one the library already had only
    /// when an address says where it came from.
    func recordInstalled(_ entry: ImportReport.Entry, bytes: [UInt8]?, from origin: String?, in cache: DependencyCache) throws(ScriptImportError) {
        let id: ScriptID
        let written: [UInt8]
        switch entry.outcome {
        case .imported(let stored), .updated(let stored, _, _):
            (id, written) = (stored.id, Array(stored.script.text.utf8))
        case .alreadyInLibrary(let existing):
            guard origin != nil, let bytes else { return }
            (id, written) = (existing, bytes)
        case .refused:
            return
        }
        do {
            try cache.recordInstalled(written, for: id, from: origin)
        } catch {
            throw .storage(error.description)
        }
    }

    /// Runs a library call, its error as the import's.
    func wrapped<T>(_ body: () throws(LibraryError) -> T) throws(ScriptImportError) -> T {
        do {
            return try body()
        } catch {
            throw .library(error)
        }
    }
}
