import Foundation
import SystemSupport
import UserScripts

/// What travels with a script through `pagescript scripts export DIR` and `scripts import`,
/// beside the script's file (which export writes byte for byte):
///
/// ```text
/// DIR/tidy.user.js                    the script, as in the library
/// DIR/tidy.storage.json               its values: {"ts": <ms since 1970>, "data": {"key": value, ...}}
/// DIR/tidy.pagescript-files.json      its fetched files: {"format": 1, "files": {URL: {"sha256", "fetchedFrom", "contentType"}}}
/// DIR/.pagescript-cache/<sha256>      the fetched files themselves, shared by the exported scripts
/// ```
///
/// The values file has the shape of the storage files in Tampermonkey's backups. The cache
/// folder is hidden, so importing `DIR` never takes its files for scripts. On import every
/// cached file is checked against its name (its SHA-256) and against the integrity hashes of
/// the URL that declares it; one that fails is left out, and the script fetches it again on
/// `scripts update`.
///
/// ```swift
/// let transfer = ScriptTransfer(libraryDirectory: library.directory)
/// try transfer.export(id: stored.id, script: stored.script, besideScriptAt: exportedFile)
/// try transfer.importCompanions(besideScriptAt: sourceFile, into: imported.id, script: imported.script)
/// ```
public struct ScriptTransfer: Sendable {
    /// What was written or read beside one script.
    public struct Summary: Sendable, Hashable {
        /// How many values.
        public var values: Int
        /// How many fetched files.
        public var files: Int
        /// Files that were refused on import, each with why.
        public var refused: [String]
    }

    let values: ScriptValueStore
    let cache: DependencyCache

    /// Export and import for the library in `libraryDirectory`.
    public init(libraryDirectory: URL) {
        values = ScriptValueStore(libraryDirectory: libraryDirectory)
        cache = DependencyCache(libraryDirectory: libraryDirectory)
    }

    static let valuesSuffix = ".storage.json"
    static let filesSuffix = ".pagescript-files.json"

    /// Writes the script's values and fetched files beside `exportedFile` (a `.user.js` file in
    /// the export folder). A script with no values and no files gets no companion files.
    @discardableResult
    public func export(id: ScriptID, script: UserScript, besideScriptAt exportedFile: URL) throws(ScriptTransferError) -> Summary {
        let (folder, stem) = Self.location(of: exportedFile)
        var summary = Summary(values: 0, files: 0, refused: [])
        do {
            let stored = try values.values(of: id)
            if !stored.isEmpty {
                let document: JSONValue = [
                    "ts": .integer(Int64(Date().timeIntervalSince1970 * 1000)),
                    "data": stored.object,
                ]
                try FileSystem.writeAtomically(Array(document.serialized.utf8) + [0x0A], toPath: folder + "/" + stem + Self.valuesSuffix)
                summary.values = stored.count
            }
            let record = try cache.readRecord(id)
            let declared = Set(ScriptDependency.declared(in: script).map(\.declaredURL))
            var files: [(key: String, value: JSONValue)] = []
            for (url, file) in record.files.sorted(by: { $0.key < $1.key }) where declared.contains(url) {
                guard let bytes = try cache.cachedBytes(sha256: file.sha256) else { continue }
                let cacheFolder = folder + "/" + LibraryFolder.cacheFolderName
                try FileSystem.createDirectory(atPath: cacheFolder)
                let target = cacheFolder + "/" + file.sha256
                if try FileSystem.contents(atPath: target)?.sha256Hex != file.sha256 {
                    try FileSystem.writeAtomically(bytes, toPath: target)
                }
                files.append((url, [
                    "sha256": .string(file.sha256),
                    "fetchedFrom": .string(file.fetchedFrom),
                    "contentType": file.contentType.map(JSONValue.string) ?? .null,
                ]))
            }
            if !files.isEmpty {
                let document: JSONValue = ["format": 1, "files": .object(files)]
                try FileSystem.writeAtomically(Array(document.serialized.utf8) + [0x0A], toPath: folder + "/" + stem + Self.filesSuffix)
                summary.files = files.count
            }
        } catch let error as ScriptTransferError {
            throw error
        } catch {
            throw ScriptTransferError(error)
        }
        return summary
    }

    /// Reads the values and fetched files written beside `sourceFile` by ``export(id:script:besideScriptAt:)``
    /// into the script `id` just imported from it. Values replace the script's values; files go
    /// into the cache and the script's record. Missing companion files are not an error.
    @discardableResult
    public func importCompanions(besideScriptAt sourceFile: URL, into id: ScriptID, script: UserScript) throws(ScriptTransferError) -> Summary {
        let (folder, stem) = Self.location(of: sourceFile)
        var summary = Summary(values: 0, files: 0, refused: [])
        do {
            let valuesPath = folder + "/" + stem + Self.valuesSuffix
            if let bytes = try FileSystem.contents(atPath: valuesPath) {
                guard let document = try? JSONValue(parsing: bytes), case .object(let pairs)? = document["data"] else {
                    throw ScriptTransferError.unreadable(path: valuesPath, reason: "it is not {\"data\": {...}}")
                }
                try values.replaceAll(of: id, with: pairs)
                summary.values = pairs.count
            }
            let filesPath = folder + "/" + stem + Self.filesSuffix
            if let bytes = try FileSystem.contents(atPath: filesPath) {
                guard let document = try? JSONValue(parsing: bytes), case .object(let entries)? = document["files"] else {
                    throw ScriptTransferError.unreadable(path: filesPath, reason: "it is not {\"files\": {...}}")
                }
                let declared = ScriptDependency.declared(in: script)
                for entry in entries {
                    guard let dependency = declared.first(where: { $0.declaredURL == entry.key }) else { continue }
                    // The name is checked before it becomes a path: a hand-made file could say `../../x`.
                    guard let hash = entry.value["sha256"]?.stringValue, DependencyCache.isSHA256Name(hash),
                          let content = try FileSystem.contents(atPath: folder + "/" + LibraryFolder.cacheFolderName + "/" + hash),
                          content.sha256Hex == hash else {
                        summary.refused.append("\(dependency): its cached file is missing or damaged")
                        continue
                    }
                    let integrity = (try? dependency.resolved(base: ScriptDependency.baseURL(of: script)).integrity) ?? []
                    if let mismatch = IntegrityCheck.firstMismatch(in: integrity, for: content) {
                        summary.refused.append("\(dependency): does not match its integrity hash \(mismatch.hash.written)")
                        continue
                    }
                    try cache.keep(content, as: [entry.key], for: id, contentType: entry.value["contentType"]?.stringValue,
                                   from: entry.value["fetchedFrom"]?.stringValue ?? entry.key)
                    summary.files += 1
                }
            }
        } catch let error as ScriptTransferError {
            throw error
        } catch {
            throw ScriptTransferError(error)
        }
        return summary
    }

    /// The folder of a `.user.js` file and its name without `.user.js`.
    static func location(of file: URL) -> (folder: String, stem: String) {
        let path = file.standardizedFileURL.path(percentEncoded: false)
        let name = FileSystem.baseName(of: path)
        let stem = name.hasSuffix(".user.js") ? String(name.dropLast(".user.js".count)) : name
        return (FileSystem.parentDirectory(of: path), stem)
    }
}
