import Foundation

extension ScriptLibrary {
    /// The comment put in front of a metadata line that an import set aside.
    static let setAsideMarker = "(set aside on import)"

    /// Imports userscripts written for Tampermonkey, Violentmonkey or Greasemonkey: one `.user.js`
    /// file, or every `.user.js` file in a folder and its subfolders.
    ///
    /// Each file is imported as a new script unless the library already has one with the same
    /// text. Inside a file:
    /// - an `@include` or `@exclude` glob that converts exactly to match patterns is kept, and the
    ///   note says which patterns it stands for;
    /// - a `@match` or `@include` that cannot be made strict is set aside (kept as a comment
    ///   starting with `(set aside on import)`), which only narrows where the script runs;
    /// - an `@exclude` or `@exclude-match` that cannot be made strict refuses the whole file,
    ///   because importing without it would run the script on pages its author excluded;
    /// - an unsupported `@run-at` (such as `context-menu`) is set aside, so the script runs on demand;
    /// - a script with site rules and no `@run-at` gets `@run-at document-idle`, Tampermonkey's
    ///   default, since PageScript runs a script without `@run-at` only on demand;
    /// - `@grant` values other than `none`, and `@require` and `@resource`, are listed as not
    ///   provided: the script is imported, but may fail where it uses them.
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

    private func importFile(atPath path: String) throws(LibraryError) -> ImportReport.Entry {
        let source = URL(fileURLWithPath: path)
        func refused(_ reason: String, _ notes: [ImportReport.Note] = []) -> ImportReport.Entry {
            ImportReport.Entry(source: source, outcome: .refused(reason: reason), notes: notes)
        }
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.readFile(atPath: path).bytes
        } catch {
            return refused("cannot be read: \(error.message)")
        }
        guard let text = Self.decodeUTF8(bytes) else { return refused("is not UTF-8 text") }
        let original: UserScript
        do {
            original = try UserScript(text: text, fallbackName: ScriptFileName.fallbackName(forFileName: FileSystem.baseName(of: path)))
        } catch {
            return refused("its metadata block is malformed: \(error)")
        }

        var notes: [ImportReport.Note] = []
        if !original.hasMetadataBlock {
            notes.append(.init(kind: .notice, line: nil, message: "it has no metadata block; it is named after its file and runs only on demand"))
        }
        for rule in original.siteRules where rule.kind.isExclusion {
            if let error = rule.error {
                return refused(
                    "line \(rule.line): @\(rule.kind.key) \(Self.sentence(error.description)) Importing the script without this rule would run it on pages its author excluded. Rewrite it as @exclude-match lines and import again."
                )
            }
        }
        var script = original
        do throws(MetadataError) {
            for rule in original.siteRules {
                if let error = rule.error {
                    try script.setAside(line: rule.line, marker: Self.setAsideMarker)
                    notes.append(.init(kind: .refused, line: rule.line, message: "@\(rule.kind.key) \(Self.sentence(error.description)) The line is kept as a comment."))
                } else if rule.kind == .include || rule.kind == .exclude {
                    let patterns = rule.patterns.map(\.description).joined(separator: ", ")
                    notes.append(.init(kind: .converted, line: rule.line, message: "@\(rule.kind.key) \(rule.text) is matched as \(patterns)"))
                }
            }
            for entry in original.entries where entry.key == "run-at" && RunAt(rawValue: entry.value) == nil {
                try script.setAside(line: entry.line, marker: Self.setAsideMarker)
                notes.append(.init(
                    kind: .refused, line: entry.line,
                    message: "@run-at \(entry.value) is not supported, so the script runs on demand; the line is kept as a comment"
                ))
            }
            for entry in original.entries {
                switch entry.key {
                case "grant" where entry.value != "none":
                    notes.append(.init(kind: .unsupported, line: entry.line, message: "@grant \(entry.value) is not provided by PageScript (it provides `none` only); the script may fail where it uses it"))
                case "require", "resource":
                    notes.append(.init(kind: .unsupported, line: entry.line, message: "@\(entry.key) is not loaded by PageScript; the script may fail where it needs \(entry.value)"))
                default:
                    break
                }
            }
            if script.value(for: "run-at") == nil, script.hasSitePatterns, original.value(for: "run-at") == nil {
                try script.setValue(RunAt.documentIdle.rawValue, forKey: "run-at")
                notes.append(.init(
                    kind: .added, line: nil,
                    message: "added @run-at document-idle (Tampermonkey's default): PageScript runs a script without @run-at only on demand"
                ))
            }
        } catch {
            return refused("it could not be converted: \(error)", notes)
        }

        let existing = try scripts()
        if let twin = existing.first(where: { $0.script.text == script.text }) {
            return ImportReport.Entry(source: source, outcome: .alreadyInLibrary(twin.id), notes: notes)
        }
        do {
            let stored = try create(script)
            return ImportReport.Entry(source: source, outcome: .imported(stored), notes: notes)
        } catch {
            if case .invalidScript(_, let issues) = error {
                return refused(issues.map(\.description).joined(separator: "; "), notes)
            }
            throw error
        }
    }

    /// Ends a message with a full stop unless it already ends a sentence.
    static func sentence(_ text: String) -> String {
        text.hasSuffix(".") || text.hasSuffix("?") ? text : text + "."
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
