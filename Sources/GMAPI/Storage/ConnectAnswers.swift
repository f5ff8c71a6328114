import Foundation
import SystemSupport
import UserScripts

/// What the user answered when a script's `GM_xmlhttpRequest` went to a host its `@connect` lines
/// do not name (`browse` asks, as Tampermonkey does): per script and host, allowed or refused for
/// good, so each is asked once.
///
/// Kept in the library folder, `.pagescript-connect/<id>.json` (`{"format":1,"allowed":[HOST],
/// "refused":[HOST]}`), written atomically under the library's lock; a script's rename changes
/// nothing, its removal leaves the answers for a script imported again under the same ID.
///
/// ```swift
/// let answers = ConnectAnswers(libraryDirectory: library.directory)
/// try answers.remember(true, host: "api.example.com", for: id)
/// answers.answer(host: "api.example.com", for: id)   // true
/// ```
public struct ConnectAnswers: Sendable {
    static let folderName = ".pagescript-connect"
    private let folder: LibraryFolder

    public init(libraryDirectory: URL) {
        folder = LibraryFolder(libraryDirectory)
    }

    private var directory: String { folder.path + "/" + Self.folderName }
    private func file(for id: ScriptID) -> String { directory + "/" + LibraryFolder.fileName(for: id) + ".json" }

    /// The answer kept for `host` (as ``UserScripts/URLHost`` writes it), `nil` when the user was
    /// never asked (or the file cannot be read: then PageScript asks again).
    public func answer(host: String, for id: ScriptID) -> Bool? {
        let kept = read(id)
        if kept.allowed.contains(host) { return true }
        if kept.refused.contains(host) { return false }
        return nil
    }

    /// Keeps `allowed` for `host` and the script `id`.
    public func remember(_ allowed: Bool, host: String, for id: ScriptID) throws(ValueStoreError) {
        do {
            try FileSystem.createDirectory(atPath: directory)
            try folder.withLock {
                FileSystem.removeAbandonedTemporaryFiles(in: directory)
                var kept = read(id)
                kept.allowed.removeAll { $0 == host }
                kept.refused.removeAll { $0 == host }
                if allowed { kept.allowed.append(host) } else { kept.refused.append(host) }
                let document: JSONValue = ["format": 1, "allowed": .array(kept.allowed.map(JSONValue.string)),
                                           "refused": .array(kept.refused.map(JSONValue.string))]
                try FileSystem.writeAtomically(Array((document.serialized + "\n").utf8), toPath: file(for: id), observer: nil)
            }
        } catch let error as FileSystem.Failure {
            throw ValueStoreError(error)
        } catch {
            throw .fileSystem(operation: "write", path: file(for: id), reason: "\(error)")
        }
    }

    private func read(_ id: ScriptID) -> (allowed: [String], refused: [String]) {
        guard let bytes = try? FileSystem.contents(atPath: file(for: id)), let json = try? JSONValue(parsing: String(decoding: bytes, as: UTF8.self))
        else { return ([], []) }
        return ((json["allowed"]?.arrayValue ?? []).compactMap(\.stringValue), (json["refused"]?.arrayValue ?? []).compactMap(\.stringValue))
    }
}
