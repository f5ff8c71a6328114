import Foundation

extension ScriptLibrary {
    /// Writes scripts to a folder as `<slug>.user.js` files that other userscript managers can
    /// import (`<slug>-<id>.user.js` when two exported scripts would share a name). Each file is
    /// written atomically; the folder is created if needed.
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
            try FileSystem.createDirectory(atPath: folderPath)
        } catch {
            throw LibraryError(error)
        }
        let slugCounts = Dictionary(grouping: selected, by: { ScriptFileName.slug(for: $0.name) }).mapValues(\.count)
        var entries: [ExportReport.Entry] = []
        for stored in selected {
            let slug = ScriptFileName.slug(for: stored.name)
            let name = slugCounts[slug, default: 0] > 1
                ? ScriptFileName.libraryName(slug: slug, id: stored.id)
                : slug + ScriptFileName.fileExtension
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
                _ = try write(bytes, to: path) { () throws(LibraryError) in }
                outcome = .written
            }
            entries.append(ExportReport.Entry(id: stored.id, name: stored.name, destination: URL(fileURLWithPath: path), outcome: outcome))
        }
        return ExportReport(entries: entries)
    }
}
