import Foundation
import TerminalUI
import UserScripts

/// The file of the user's own that `pagescript edit URL FILE.user.js` edits, outside the library:
/// shown whole, metadata block included, and saved back with the library's care
/// (``UserScripts/ScriptFile``): atomically, and never over a change another program made since
/// it was read, which the editor turns into its usual choice (``ScriptConflict``). A file that does
/// not exist yet starts as a new userscript for the page's site and is made by the first save.
final class EditedFile: @unchecked Sendable {
    private let lock = NSLock()
    private var file: ScriptFile
    private let pageURL: String

    /// Opens `path` for the page at `pageURL`.
    ///
    /// - Throws: ``UserScripts/LibraryError`` when the file cannot be read.
    init(path: String, pageURL: String) throws(LibraryError) {
        file = try ScriptFile.open(path)
        self.pageURL = pageURL
    }

    /// The file as the editor opens it.
    func opened() -> OpenedScript {
        let file = lock.withLock { self.file }
        return OpenedScript(document: document(for: file.text), code: file.text.isEmpty ? newScript() : file.text)
    }

    /// Ctrl-S: `code` into the file.
    func save(_ code: String) throws -> SaveReceipt {
        let document = document(for: code)
        do throws(LibraryError) {
            lock.lock()
            defer { lock.unlock() }
            try file.save(code)
        } catch {
            switch error {
            case let .changedOnDisk(path):
                let theirs = (try? ScriptFile.open(path))?.text ?? ""
                throw ScriptConflict(document: document, path: path, change: .changed(theirs: theirs))
            case let .missingOnDisk(path):
                throw ScriptConflict(document: document, path: path, change: .deleted)
            default:
                throw error
            }
        }
        return SaveReceipt(document: document, message: "Saved \(lock.withLock { file.path })")
    }

    /// The file as it is on disk now ("load theirs" after a conflict); later saves compare against it.
    func reload() throws -> OpenedScript {
        let reread = try ScriptFile.open(lock.withLock { file.path })
        lock.withLock { file = reread }
        return opened()
    }

    /// What the editor calls the file with `text`: its name, and the pages its rules name.
    private func document(for text: String) -> ScriptDocument {
        let path = lock.withLock { file.path }
        let rules = UserScript(text: text).siteRules
        return ScriptDocument(id: nil, name: (path as NSString).lastPathComponent, role: .file(path),
                              matchPatterns: rules.filter { !$0.kind.isExclusion }.map(\.text),
                              excludePatterns: rules.filter { $0.kind.isExclusion }.map(\.text),
                              runAt: UserScript(text: text).runAt?.rawValue)
    }

    /// A new file's text: a userscript named after the file, for the page's site.
    private func newScript() -> String {
        let name = ((lock.withLock { file.path } as NSString).lastPathComponent as NSString).deletingPathExtension
        let matches = (try? PageURL(pageURL)).map { Site(url: $0).matchPatterns.map(\.text) } ?? []
        let base = name.hasSuffix(".user") ? String(name.dropLast(5)) : name
        return (try? UserScript.make(name: base, matches: matches, body: "\n"))?.text ?? ""
    }
}
