import Foundation

/// A userscript file of the user's own, outside any library (`pagescript edit URL FILE.user.js`),
/// saved with the same care as the library's files: written atomically (a temporary beside it,
/// flushed, renamed over it; the file keeps its mode), and never over a change another program
/// made since it was read (``LibraryError/changedOnDisk(path:)``), nor over a file that appeared
/// where there was none. A save that would add a site rule PageScript cannot read safely is
/// refused as the library refuses it; such lines the file already had are kept.
///
/// ```swift
/// var file = try ScriptFile.open("/home/me/tidy.user.js")
/// try file.save(file.text + "\nconsole.log('more')\n")
/// ```
public struct ScriptFile: Sendable {
    /// The file's path, as given.
    public let path: String
    /// The text as last read or saved.
    public private(set) var text: String
    /// What the file looked like then; `nil` while it does not exist.
    private var fingerprint: FileFingerprint?
    /// The save problems the text had then, which a save may keep.
    private var knownProblems: Set<String>

    /// Reads `path`; a file that does not exist yet is opened empty and made by the first save.
    ///
    /// - Throws: ``LibraryError/notUTF8(path:)``, or ``LibraryError/fileSystem(operation:path:reason:)``
    ///   when it cannot be read (a folder, no permission).
    public static func open(_ path: String) throws(LibraryError) -> ScriptFile {
        do {
            let (bytes, status) = try FileSystem.readFile(atPath: path)
            guard let text = ScriptLibrary.decodeUTF8(bytes) else { throw LibraryError.notUTF8(path: path) }
            return ScriptFile(path: path, text: text, fingerprint: FileFingerprint(bytes: bytes, status: status))
        } catch let failure as FileSystem.Failure where failure.code == ENOENT {
            return ScriptFile(path: path, text: "", fingerprint: nil)
        } catch let failure as FileSystem.Failure {
            throw LibraryError(failure)
        } catch {
            throw error as? LibraryError ?? .fileSystem(operation: "read", path: path, reason: "\(error)")
        }
    }

    private init(path: String, text: String, fingerprint: FileFingerprint?) {
        self.path = path
        self.text = text
        self.fingerprint = fingerprint
        knownProblems = Set(UserScript(text: text).interpretation.saveProblems.map(ScriptLibrary.problemKey))
    }

    /// Writes `text` to the file, as described above; afterwards the file is known as saved.
    ///
    /// - Throws: ``LibraryError/changedOnDisk(path:)`` (changed, or made, by another program
    ///   since it was read), ``LibraryError/missingOnDisk(path:)`` (deleted or moved away),
    ///   ``LibraryError/invalidScript(path:problems:)``, or a file system failure; nothing is
    ///   written then.
    public mutating func save(_ text: String) throws(LibraryError) {
        let added = UserScript(text: text).interpretation.saveProblems.filter { !knownProblems.contains(ScriptLibrary.problemKey($0)) }
        guard added.isEmpty else { throw .invalidScript(path: path, problems: added) }
        let bytes = Array(text.utf8)
        let expected = fingerprint
        let path = self.path
        let status = try ScriptLibrary.write(bytes, to: path, newFileMode: 0o644) { () throws(LibraryError) in
            switch (expected, try ScriptLibrary.fingerprint(ofFileAt: path)) {
            case (nil, nil): return
            case (nil, _?): throw .changedOnDisk(path: path)
            case (_?, nil): throw .missingOnDisk(path: path)
            case let (expected?, current?): if expected != current { throw .changedOnDisk(path: path) }
            }
        }
        self.text = text
        fingerprint = FileFingerprint(bytes: bytes, status: status)
        knownProblems = Set(UserScript(text: text).interpretation.saveProblems.map(ScriptLibrary.problemKey))
    }
}
