import Foundation

extension ScriptLibrary {
    /// Imports userscripts written for Tampermonkey, Violentmonkey or Greasemonkey: one `.user.js`
    /// file, or every `.user.js` file in a folder and its subfolders.
    ///
    /// Each file is copied into the library byte for byte, whatever it holds: a byte-order mark,
    /// `\r\n` line breaks, unknown or localised keys, comments, rules PageScript cannot use. What
    /// PageScript concludes about it (rules narrowed or set aside and why, when it runs, the files
    /// it requires) is in the entry's ``ImportReport/Entry/interpretation`` and in the library's
    /// index, never in the file. A file the library already has, byte for byte, is not copied
    /// again. A file with the `@name` and `@namespace` of an installed script is a new version of
    /// it, as in Tampermonkey and Violentmonkey: it replaces that script's file (the old one goes
    /// to the trash) and keeps its ID and values, whatever its `@version` (the entry has the
    /// version it replaced, so that a caller can warn when it went down). Only a file that is not
    /// UTF-8 text (a zip archive is named as one), or cannot be read, is refused.
    ///
    /// - Throws: Only when `source` cannot be read at all; problems with single files are in the report.
    public func importScripts(from source: URL) throws(LibraryError) -> ImportReport {
        let path = source.standardizedFileURL.path(percentEncoded: false)
        let status: FileSystem.Status?
        do {
            status = try FileSystem.status(atPath: path)
        } catch {
            throw LibraryError(error)
        }
        guard let status else { throw .invalidSource(path: path, reason: "no such file or folder") }
        let files = status.isDirectory ? try userScriptFiles(under: path) : [path]
        var entries: [ImportReport.Entry] = []
        for file in files {
            entries.append(try importFile(atPath: file))
        }
        return ImportReport(entries: entries)
    }

    /// Copies one file in, as a new script or a new version of an installed one.
    private func importFile(atPath path: String) throws(LibraryError) -> ImportReport.Entry {
        let source = URL(fileURLWithPath: path)
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.readFile(atPath: path).bytes
        } catch {
            return ImportReport.Entry(source: source, outcome: .refused(reason: "cannot be read: \(error.message)"), interpretation: nil)
        }
        return try importScript(bytes: bytes, source: source)
    }

    /// Imports one script that did not come from a file of its own (a download, an entry of a
    /// backup) exactly as ``importScripts(from:)`` imports a file: byte for byte, as a new
    /// script, a new version of the installed script with the same `@name` and `@namespace`, or
    /// nothing when the library already has these bytes; refused only when they are not UTF-8.
    ///
    /// - Parameters:
    ///   - bytes: The script, byte for byte.
    ///   - source: Where it came from, for the report; its last path component is the name a
    ///     script without `@name` gets.
    ///
    /// ```swift
    /// let entry = try library.importScript(bytes: downloaded, source: URL(string: "https://example.com/tidy.user.js")!)
    /// ```
    public func importScript(bytes: [UInt8], source: URL) throws(LibraryError) -> ImportReport.Entry {
        // A zip archive's bytes can happen to be UTF-8 (a small one, stored): it is never a script.
        if ZipArchiveText.isZipArchive(bytes) {
            return ImportReport.Entry(source: source, outcome: .refused(reason: ZipArchiveText.notAScript), interpretation: nil)
        }
        guard let text = Self.decodeUTF8(bytes) else {
            return ImportReport.Entry(
                source: source, outcome: .refused(reason: "is not UTF-8 text; save it as UTF-8 and import it again"), interpretation: nil)
        }
        let script = UserScript(text: text, fallbackName: ScriptFileName.fallbackName(forFileName: source.lastPathComponent))
        if let twin = try locked({ () throws(LibraryError) in
            try refresh()
            return try existingScript(withBytes: bytes)
        }) {
            return ImportReport.Entry(source: source, outcome: .alreadyInLibrary(twin.id), interpretation: twin.interpretation)
        }
        if script.hasMetadataBlock, let installed = try self.script(sameAs: script) {
            do throws(LibraryError) {
                let (updated, previous) = try replace(installed, withText: text)
                return ImportReport.Entry(source: source, outcome: .updated(updated, previousFile: previous, previousVersion: installed.script.version),
                                          interpretation: updated.interpretation)
            } catch {
                return ImportReport.Entry(source: source, outcome: .refused(reason: "replaces \(installed.name) [\(installed.id)], which cannot be replaced: \(error)"),
                                          interpretation: nil)
            }
        }
        let stored = try locked { () throws(LibraryError) in
            try refresh()
            return try addFile(bytes: bytes, text: text, name: script.name)
        }
        return ImportReport.Entry(source: source, outcome: .imported(stored), interpretation: stored.interpretation)
    }

    /// Every `.user.js` file under `folder`, in path order; hidden folders (and the library's own
    /// folder, if it is inside) are skipped.
    private func userScriptFiles(under folder: String) throws(LibraryError) -> [String] {
        var files: [String] = []
        var pending = [folder]
        while let current = pending.popLast() {
            guard current != directoryPath else { continue }
            let entries: [(name: String, status: FileSystem.Status)]
            do {
                entries = try FileSystem.listDirectory(atPath: current)
            } catch {
                throw LibraryError(error)
            }
            for entry in entries where !entry.name.hasPrefix(".") {
                let path = (current.hasSuffix("/") ? current : current + "/") + entry.name
                if entry.status.isDirectory {
                    pending.append(path)
                } else if entry.status.isRegularFile, entry.name.hasSuffix(ScriptFileName.fileExtension) {
                    files.append(path)
                }
            }
        }
        return files.sorted()
    }
}
