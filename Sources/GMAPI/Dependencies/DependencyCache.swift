import Foundation
import UserScripts

/// The `@require` and `@resource` files of the library's scripts, fetched once and kept inside
/// the library folder, and what each script needs of them.
///
/// **On disk.** Each file is stored once, named by its SHA-256 (`.pagescript-cache/<sha256>`),
/// and shared by every script that declares it; a script's record
/// (`.pagescript-fetched/<id>.json`) maps each URL it declares, as written, to a cached file.
/// Both are written atomically under the library's lock.
///
/// **At run time.** ``runFiles(for:id:)`` reads what a run needs: the `@require` texts in order,
/// the resources, and the declared files that are missing. A script with missing files is not
/// runnable; each ``MissingFile`` names its line, URL and the last failure. A cached file is
/// checked against its SHA-256 when read, so a damaged cache counts as missing, never runs.
///
/// ```swift
/// let cache = DependencyCache(libraryDirectory: library.directory)
/// let files = try cache.runFiles(for: stored.script, id: stored.id)
/// guard files.isRunnable else { report(files.missing); return }
/// ```
public final class DependencyCache: Sendable {
    /// The library folder.
    public let libraryDirectory: URL
    let folder: LibraryFolder

    /// The cache of the library in `libraryDirectory`; nothing is read or created until used.
    public init(libraryDirectory: URL) {
        self.libraryDirectory = libraryDirectory
        folder = LibraryFolder(libraryDirectory)
    }

    // MARK: Run time

    /// The declared files of `script` that are not in the cache, in declaration order.
    public func missing(for script: UserScript, id: ScriptID) throws(DependencyError) -> [MissingFile] {
        try runFiles(for: script, id: id).missing
    }

    /// Why `stored` cannot run now, or `nil` when nothing it declares is missing: its first
    /// missing `@require` or `@resource` file, for `scripts list` and `scripts which`, which
    /// show such a script as blocked (it runs nowhere until the file is fetched).
    ///
    /// ```swift
    /// DependencyCache(libraryDirectory: folder).blockReason(for: stored)
    /// // "blocked: line 4: @require https://cdn.example/lib.js is missing (not fetched yet); pagescript scripts update fetches it,
    /// //  pagescript scripts supply takes it from a file"
    /// ```
    public func blockReason(for stored: StoredScript) -> String? {
        guard let missing = try? missing(for: stored.script, id: stored.id), let first = missing.first else { return nil }
        let more = missing.count > 1 ? " and \(missing.count - 1) more" : ""
        return "blocked: \(first)\(more); pagescript scripts update fetches it, pagescript scripts supply takes it from a file"
    }

    /// Everything a run of `script` needs from the cache (see ``ScriptRunFiles``).
    public func runFiles(for script: UserScript, id: ScriptID) throws(DependencyError) -> ScriptRunFiles {
        let dependencies = ScriptDependency.declared(in: script)
        // Most scripts declare no file: their runs need not read the record.
        guard !dependencies.isEmpty else { return ScriptRunFiles(requires: [], resources: [], missing: []) }
        let record = try readRecord(id)
        var requires: [FetchedFile] = []
        var resources: [FetchedFile] = []
        var missing: [MissingFile] = []
        for dependency in dependencies {
            guard let file = try cachedFile(for: dependency, record: record) else {
                missing.append(MissingFile(dependency: dependency, lastFailure: record.failures[dependency.declaredURL]?.reason))
                continue
            }
            switch dependency.kind {
            case .require: requires.append(file)
            case .resource: resources.append(file)
            }
        }
        return ScriptRunFiles(requires: requires, resources: resources, missing: missing)
    }

    /// One resource of `script`, for `GM_getResourceText`/`GM_getResourceURL` asked lazily.
    public func resource(named name: String, for script: UserScript, id: ScriptID) throws(DependencyError) -> FetchedFile? {
        guard let dependency = ScriptDependency.declared(in: script).first(where: { $0.resourceName == name }) else { return nil }
        return try cachedFile(for: dependency, record: try readRecord(id))
    }

    /// The SHA-256 of the script file as PageScript last installed or updated it, if it did.
    public func installedSHA256(of id: ScriptID) throws(DependencyError) -> String? {
        try readRecord(id).installed?.sha256
    }

    /// The address the script's file was last installed or updated from, when it came from one:
    /// where `scripts update` looks when the script names no `@downloadURL`.
    public func installedOrigin(of id: ScriptID) throws(DependencyError) -> String? {
        try readRecord(id).installed?.from
    }

    /// Records that the script's file, with this content, was installed or updated by PageScript
    /// (from `url`, when it came from one): `scripts update` replaces only a file that still has
    /// this content, unless forced, and checks `url` for a new version when the script names no
    /// `@downloadURL`. A file imported from disk is recorded with no address.
    public func recordInstalled(_ bytes: [UInt8], for id: ScriptID, from url: String?) throws(DependencyError) {
        try changeRecord(id) { record in
            record.installed = FetchedRecord.Installed(sha256: bytes.sha256Hex, from: url, at: FetchedRecord.timestamp())
        }
    }

    /// Stores `bytes` and records them for the script with ID `id` as the file at each of
    /// `declaredURLs` (as the script writes them), clearing their last failures: a download, an
    /// imported export and a file supplied by hand are kept alike. Returns the file's SHA-256.
    @discardableResult
    func keep(_ bytes: [UInt8], as declaredURLs: [String], for id: ScriptID, contentType: String?,
              from source: String) throws(DependencyError) -> String {
        let hash = try store(bytes)
        let file = FetchedRecord.File(sha256: hash, size: bytes.count, contentType: contentType, fetchedFrom: source,
                                      fetchedAt: FetchedRecord.timestamp())
        try changeRecord(id) { record in
            for url in declaredURLs {
                record.files[url] = file
                record.failures[url] = nil
            }
        }
        return hash
    }

    /// Every cached file's name (its SHA-256), sorted.
    public func cachedHashes() throws(DependencyError) -> [String] {
        do {
            return try FileSystem.names(inDirectory: folder.cacheFolder).filter { !$0.hasPrefix(".") }
        } catch {
            throw DependencyError(error)
        }
    }

    /// The declared URLs the script's record maps, each to its cached file's SHA-256.
    public func recordedFiles(of id: ScriptID) throws(DependencyError) -> [String: String] {
        try readRecord(id).files.mapValues(\.sha256)
    }

    // MARK: Writing (the fetcher, export and import)

    /// Puts `bytes` into the cache (once: an existing file with the same hash is kept) and returns
    /// its SHA-256.
    @discardableResult
    func store(_ bytes: [UInt8]) throws(DependencyError) -> String {
        let hash = bytes.sha256Hex
        let path = folder.cacheFile(sha256: hash)
        do {
            try FileSystem.createDirectory(atPath: folder.cacheFolder)
            try folder.withLock {
                FileSystem.removeAbandonedTemporaryFiles(in: folder.cacheFolder)
                if let existing = try FileSystem.contents(atPath: path), existing.sha256Hex == hash { return }
                try FileSystem.writeAtomically(bytes, toPath: path)
            }
        } catch let error as FileSystem.Failure {
            throw DependencyError(error)
        } catch let error as DependencyError {
            throw error
        } catch {
            throw .fileSystem(operation: "lock", path: folder.lockFile, reason: "\(error)")
        }
        return hash
    }

    /// The cached file with this SHA-256, if it is there and whole.
    func cachedBytes(sha256 hash: String) throws(DependencyError) -> [UInt8]? {
        guard Self.isSHA256Name(hash) else { return nil }
        let bytes: [UInt8]?
        do {
            bytes = try FileSystem.contents(atPath: folder.cacheFile(sha256: hash))
        } catch {
            throw DependencyError(error)
        }
        guard let bytes, bytes.sha256Hex == hash else { return nil }
        return bytes
    }

    /// Whether `name` is a cache file's name: 64 lowercase hex digits, nothing a path could use.
    static func isSHA256Name(_ name: String) -> Bool {
        name.utf8.count == 64 && name.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
    }

    /// Rereads the record under the lock, applies `change`, and writes it back atomically, so
    /// that two processes recording files for the same script both keep their entries.
    func changeRecord(_ id: ScriptID, _ change: (inout FetchedRecord) -> Void) throws(DependencyError) {
        do {
            try FileSystem.createDirectory(atPath: folder.fetchedFolder)
            try folder.withLock {
                FileSystem.removeAbandonedTemporaryFiles(in: folder.fetchedFolder)
                var record = try readRecord(id)
                let before = record
                change(&record)
                guard record != before else { return }
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                let data = try encoder.encode(record)
                try FileSystem.writeAtomically(Array(data) + [UInt8(ascii: "\n")], toPath: folder.fetchedRecord(for: id))
            }
        } catch let error as FileSystem.Failure {
            throw DependencyError(error)
        } catch let error as DependencyError {
            throw error
        } catch {
            throw .fileSystem(operation: "write", path: folder.fetchedRecord(for: id), reason: "\(error)")
        }
    }

    func readRecord(_ id: ScriptID) throws(DependencyError) -> FetchedRecord {
        let path = folder.fetchedRecord(for: id)
        let bytes: [UInt8]?
        do {
            bytes = try FileSystem.contents(atPath: path)
        } catch {
            throw DependencyError(error)
        }
        guard let bytes else { return FetchedRecord() }
        let record: FetchedRecord
        do {
            record = try JSONDecoder().decode(FetchedRecord.self, from: Data(bytes))
        } catch {
            throw .unreadableRecord(path: path, reason: "it is not a record PageScript wrote")
        }
        guard record.format <= FetchedRecord.currentFormat else {
            throw .unreadableRecord(path: path, reason: "it was written by a newer PageScript (format \(record.format))")
        }
        return record
    }

    private func cachedFile(for dependency: ScriptDependency, record: FetchedRecord) throws(DependencyError) -> FetchedFile? {
        guard let entry = record.files[dependency.declaredURL], let bytes = try cachedBytes(sha256: entry.sha256) else { return nil }
        return FetchedFile(
            dependency: dependency,
            fetchedFrom: entry.fetchedFrom,
            sha256: entry.sha256,
            contentType: entry.contentType,
            bytes: bytes
        )
    }
}
