extension ScriptLibrary {
    /// A file in the library's `.trash/` folder: a deleted script, or a version an update replaced.
    public struct TrashedScript: Sendable, Equatable {
        /// The file in `.trash/`.
        public let path: String
        /// The ID the script had (from its file name).
        public let id: ScriptID
        /// The script's `@name`, read from the file.
        public let name: String
        /// When the file went to the trash, as the file system's change time (seconds since 1970).
        public let trashedAt: Int64
    }

    /// The files in the trash, the most recently trashed first.
    ///
    /// ```swift
    /// for trashed in try library.trashedScripts() { print(trashed.id, trashed.name) }
    /// ```
    public func trashedScripts() throws(LibraryError) -> [TrashedScript] {
        let trash = directoryPath + "/" + Self.trashFolderName
        let entries: [(name: String, status: FileSystem.Status)]
        do {
            entries = try FileSystem.listDirectory(atPath: trash)
        } catch {
            if error.isNotFound { return [] }
            throw LibraryError(error)
        }
        var found: [TrashedScript] = []
        for entry in entries where entry.status.isRegularFile && entry.name.hasSuffix(ScriptFileName.fileExtension) {
            let original = Self.originalFileName(ofTrashed: entry.name)
            guard let id = ScriptID.fromFileName(original) else { continue }
            let path = trash + "/" + entry.name
            let text = (try? FileSystem.readFile(atPath: path).bytes).flatMap(Self.decodeUTF8) ?? ""
            let script = UserScript(text: text, fallbackName: ScriptFileName.fallbackName(forFileName: original))
            found.append(TrashedScript(path: path, id: id, name: script.name, trashedAt: entry.status.changeSeconds))
        }
        return found.sorted { ($0.trashedAt, $0.path) > ($1.trashedAt, $1.path) }
    }

    /// Brings a script back from the trash under its old file name and ID: `scripts restore REF`.
    ///
    /// `reference` is a trashed script's ID (or the start of exactly one), its name, or the
    /// file's name in `.trash/`; when several trashed versions fit, the most recently trashed
    /// one comes back and the others stay. The file is moved, byte for byte.
    ///
    /// - Throws: ``LibraryError/notInTrash(_:)`` when nothing in the trash fits;
    ///   ``LibraryError/ambiguous(_:candidates:)`` when different scripts do;
    ///   ``LibraryError/alreadyInLibrary(id:path:)`` when a script with that ID is in the library.
    /// - Returns: The restored script.
    ///
    /// ```swift
    /// try library.delete(id: stored.id)
    /// let back = try library.restore(stored.id.rawValue)
    /// ```
    public func restore(_ reference: String) throws(LibraryError) -> StoredScript {
        let trashed = try trashedScripts()
        let byFile = trashed.filter { FileSystem.baseName(of: $0.path) == reference }
        let byID = trashed.filter { $0.id.rawValue == reference }
        let byPrefix = reference.count >= 3 ? trashed.filter { $0.id.rawValue.hasPrefix(reference) } : []
        let byName = trashed.filter { $0.name.lowercased() == reference.lowercased() }
        let candidates = [byFile, byID, byPrefix, byName].first { !$0.isEmpty } ?? []
        guard let chosen = candidates.first else { throw .notInTrash(reference) }
        let ids = Set(candidates.map(\.id))
        guard ids.count == 1 else { throw .ambiguous(reference, candidates: ids.sorted { $0.rawValue < $1.rawValue }) }
        let destination = directoryPath + "/" + Self.originalFileName(ofTrashed: FileSystem.baseName(of: chosen.path))
        if let present = try? find(chosen.id.rawValue), present.id == chosen.id {
            throw .alreadyInLibrary(id: chosen.id, path: present.file.path(percentEncoded: false))
        }
        try locked { () throws(LibraryError) in
            try withLibraryLock { () throws(LibraryError) in
                if try exists(destination) { throw .alreadyInLibrary(id: chosen.id, path: destination) }
                do throws(FileSystem.Failure) {
                    try FileSystem.move(chosen.path, to: destination)
                } catch {
                    throw LibraryError(error)
                }
            }
            try refresh(force: true)
        }
        return try find(chosen.id.rawValue)
    }

    /// Where a file named `name` goes in the trash: `.trash/<name>`, or `.trash/<stem>.2.user.js`,
    /// `.3`, ... when that is taken. Creates the trash folder; the library lock must be held.
    func freeTrashPath(for name: String) throws(LibraryError) -> String {
        let trash = directoryPath + "/" + Self.trashFolderName
        do throws(FileSystem.Failure) {
            try FileSystem.createDirectory(atPath: trash)
        } catch {
            throw LibraryError(error)
        }
        let stem = String(name.dropLast(ScriptFileName.fileExtension.count))
        var destination = trash + "/" + name
        var number = 1
        while try exists(destination) {
            number += 1
            destination = trash + "/\(stem).\(number)\(ScriptFileName.fileExtension)"
        }
        return destination
    }

    /// `tidy-abc12345.2.user.js` (the second trashed version) → `tidy-abc12345.user.js`.
    static func originalFileName(ofTrashed name: String) -> String {
        let stem = name.dropLast(ScriptFileName.fileExtension.count)
        guard let dot = stem.lastIndex(of: "."), stem[stem.index(after: dot)...].allSatisfy(\.isNumber),
              stem.index(after: dot) < stem.endIndex else { return name }
        return String(stem[..<dot]) + ScriptFileName.fileExtension
    }
}
