import Foundation
import SystemSupport
import UserScripts

/// The values scripts keep with `GM_setValue`, one file per script ID inside the library folder
/// (`.pagescript-values/<id>.json`).
///
/// **A run's life.** Before a script runs, the page receives ``values(of:)``, so `GM_getValue`
/// answers synchronously; while it runs, the page records its `GM_setValue`/`GM_deleteValue`
/// calls; they come back as ``ValueChange``s and ``apply(_:to:)`` writes them.
///
/// **Two runs at once.** ``apply(_:to:)`` takes the library's lock file, rereads the file, applies
/// the changes key by key, and writes the result. Changes are merged per key: a run that set
/// `a` and a run that set `b` both keep their value, and when both set the same key the change
/// applied last wins (last writer per key wins). A run never writes back keys it did not change,
/// so it cannot undo another run's writes with its stale snapshot.
///
/// **Cost.** Every call is synchronous file work: a read, and for a write two flushes to disk
/// (the file and its folder), a few milliseconds on an ordinary disk. Batch a run's changes
/// into one ``apply(_:to:)``, and keep the calls off threads that must never wait.
///
/// **Safety.** The file is replaced atomically (temporary file, flush, rename, flush of the
/// folder): a writer killed at any moment leaves the old values or the new, never a torn file.
/// Values are keyed by the script's ID, so they survive renames; a script moved to the trash
/// keeps them, and has them again if it is restored.
///
/// ```swift
/// let store = ScriptValueStore(libraryDirectory: library.directory)
/// let before = try store.values(of: id)                 // hand to the page
/// let after = try store.apply([.set(key: "count", value: 3)], to: id)
/// ```
public final class ScriptValueStore: Sendable {
    /// The library folder.
    public let libraryDirectory: URL
    let folder: LibraryFolder
    /// Told about each stage of every write; set by tests that kill a writer mid-write.
    let writeObserver: (@Sendable (FileSystem.WriteStage) -> Void)?

    /// The version of the file layout; a newer one is refused rather than misread.
    static let currentFormat = 1

    /// A store for the library in `libraryDirectory`. Nothing is read or created until used.
    public convenience init(libraryDirectory: URL) {
        self.init(libraryDirectory: libraryDirectory, writeObserver: nil)
    }

    init(libraryDirectory: URL, writeObserver: (@Sendable (FileSystem.WriteStage) -> Void)?) {
        self.libraryDirectory = libraryDirectory
        folder = LibraryFolder(libraryDirectory)
        self.writeObserver = writeObserver
    }

    /// Every value the script has stored, with the current revision: the snapshot a run starts
    /// from. A script that never stored anything has none (revision 0).
    ///
    /// Reading takes no lock: files are only ever replaced whole, so a read sees one version.
    public func values(of id: ScriptID) throws(ValueStoreError) -> ScriptValues {
        try read(id)
    }

    /// A stamp of the script's values file as it is now (``ValueFileStamp``), or `nil` when the
    /// script has none: another process's write is noticed by a changed stamp, without reading
    /// the values.
    public func fileStamp(of id: ScriptID) -> ValueFileStamp? {
        ValueFileStamp(path: folder.valuesFile(for: id))
    }

    /// Applies a run's changes, in order, over the values on disk now, and writes them durably.
    ///
    /// - Returns: The values as written, which may hold other runs' changes too.
    @discardableResult
    public func apply(_ changes: [ValueChange], to id: ScriptID) throws(ValueStoreError) -> ScriptValues {
        try update(id) { $0.applying(changes) }
    }

    /// Removes every value of a script (`scripts values REF --clear`).
    @discardableResult
    public func removeAll(of id: ScriptID) throws(ValueStoreError) -> ScriptValues {
        try update(id) { current in current.applying(current.keys.map { .delete(key: $0) }) }
    }

    /// Replaces a script's values with `pairs` (an import), keeping the revision growing.
    @discardableResult
    public func replaceAll(of id: ScriptID, with pairs: [(key: String, value: JSONValue)]) throws(ValueStoreError) -> ScriptValues {
        try update(id) { current in
            let cleared = current.applying(current.keys.map { .delete(key: $0) })
            return ScriptValues(scriptID: id, revision: cleared.revision + 1, pairs: pairs)
        }
    }

    /// The IDs of the scripts that have a values file, sorted.
    public func scriptIDs() throws(ValueStoreError) -> [ScriptID] {
        do {
            return try FileSystem.names(inDirectory: folder.valuesFolder).compactMap(LibraryFolder.scriptID(fromFileName:)).sorted()
        } catch {
            throw ValueStoreError(error)
        }
    }

    // MARK: Private

    private func update(_ id: ScriptID, _ change: (ScriptValues) -> ScriptValues) throws(ValueStoreError) -> ScriptValues {
        do {
            try FileSystem.createDirectory(atPath: folder.valuesFolder)
        } catch {
            throw ValueStoreError(error)
        }
        do {
            return try folder.withLock {
                FileSystem.removeAbandonedTemporaryFiles(in: folder.valuesFolder)
                let current = try read(id)
                let next = change(current)
                guard next != current else { return current }
                try FileSystem.writeAtomically(Self.encode(next), toPath: folder.valuesFile(for: id), observer: writeObserver)
                return next
            }
        } catch let error as ValueStoreError {
            throw error
        } catch let error as FileSystem.Failure {
            throw ValueStoreError(error)
        } catch {
            throw .fileSystem(operation: "lock", path: folder.lockFile, reason: "\(error)")
        }
    }

    private func read(_ id: ScriptID) throws(ValueStoreError) -> ScriptValues {
        let path = folder.valuesFile(for: id)
        let bytes: [UInt8]?
        do {
            bytes = try FileSystem.contents(atPath: path)
        } catch {
            throw ValueStoreError(error)
        }
        guard let bytes else { return ScriptValues(scriptID: id) }
        return try Self.decode(bytes, id: id, path: path)
    }

    /// `{"format":1,"revision":N,"values":{...}}` and a line feed.
    static func encode(_ values: ScriptValues) -> [UInt8] {
        let document: JSONValue = [
            "format": .integer(Int64(currentFormat)),
            "revision": .integer(Int64(values.revision)),
            "values": values.object,
        ]
        return Array(document.serialized.utf8) + [UInt8(ascii: "\n")]
    }

    static func decode(_ bytes: [UInt8], id: ScriptID, path: String) throws(ValueStoreError) -> ScriptValues {
        let document: JSONValue
        do {
            document = try JSONValue(parsing: bytes)
        } catch {
            throw .unreadableValues(path: path, reason: "it is not valid JSON: \(error)")
        }
        guard let format = document["format"]?.intValue else {
            throw .unreadableValues(path: path, reason: "it has no `format`")
        }
        guard format <= currentFormat else {
            throw .unreadableValues(path: path, reason: "it was written by a newer PageScript (format \(format))")
        }
        guard case .object(let pairs)? = document["values"] else {
            throw .unreadableValues(path: path, reason: "its `values` is not an object")
        }
        let revision = document["revision"]?.intValue ?? 0
        return ScriptValues(scriptID: id, revision: revision, pairs: pairs)
    }
}
