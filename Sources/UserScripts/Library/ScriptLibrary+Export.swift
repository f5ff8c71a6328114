import Foundation

extension ScriptLibrary {
    /// Writes scripts to a folder as `<name>.user.js` files that other userscript managers can
    /// import, named after each script's `@name` in whatever script it is written
    /// (`<name>-<id>.user.js` when two exported scripts would share a name, letter case aside).
    /// Only what a file system refuses is changed in a name: `/`, control characters, leading
    /// dots, a length past its limit. Each file is written atomically, readable by others as any
    /// new file (`0644` under the usual umask), unlike the library's own; the folder is created
    /// if needed.
    ///
    /// - Parameters:
    ///   - folder: Where to write.
    ///   - ids: The scripts to export; all of them when `nil`.
    ///   - replacingExisting: Whether to replace a different file already at a destination.
    ///     Off by default: such a file is left alone and reported.
    public func export(to folder: URL, ids: [ScriptID]? = nil, replacingExisting: Bool = false) throws(LibraryError) -> ExportReport {
        var selected = try scripts()
        if let ids {
            for id in ids where !selected.contains(where: { $0.id == id }) { throw .notFound(id.rawValue) }
            selected = selected.filter { ids.contains($0.id) }
        }
        var folderPath = folder.standardizedFileURL.path(percentEncoded: false)
        while folderPath.count > 1, folderPath.hasSuffix("/") { folderPath.removeLast() }
        do {
            try FileSystem.createDirectory(atPath: folderPath, mode: FileSystem.sharedDirectoryMode)
        } catch {
            throw LibraryError(error)
        }
        // Names that differ only in letter case are one file on a case-insensitive file system.
        let clash = { (stem: String) in stem.lowercased() }
        let stemCounts = Dictionary(grouping: selected, by: { clash(ScriptFileName.exportStem(for: $0.name)) }).mapValues(\.count)
        var entries: [ExportReport.Entry] = []
        for stored in selected {
            let stem = ScriptFileName.exportStem(for: stored.name)
            let name = stemCounts[clash(stem), default: 0] > 1
                ? ScriptFileName.libraryName(slug: stem, id: stored.id)
                : stem + ScriptFileName.fileExtension
            let path = folderPath + "/" + name
            let bytes = Array(stored.script.text.utf8)
            let outcome: ExportReport.Outcome
            var current: [UInt8]?
            var unreadable: String?
            do {
                current = try FileSystem.readFile(atPath: path).bytes
            } catch {
                if !error.isNotFound { unreadable = error.message }
            }
            if let unreadable {
                outcome = .refused(reason: "the file already there cannot be read (\(unreadable))")
            } else if current == bytes {
                outcome = .unchanged
            } else if current != nil, !replacingExisting {
                outcome = .refused(reason: "a different file is already there")
            } else {
                _ = try write(bytes, to: path, newFileMode: FileSystem.sharedFileMode) { () throws(LibraryError) in }
                outcome = .written
            }
            entries.append(ExportReport.Entry(id: stored.id, name: stored.name, destination: URL(fileURLWithPath: path), outcome: outcome))
        }
        return ExportReport(entries: entries)
    }
}
