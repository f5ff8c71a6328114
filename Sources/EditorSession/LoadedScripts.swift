import Foundation
import TerminalUI
import UserScripts

/// The library scripts the editor has shown, each as it was read from its file, so that a save
/// can tell whether another program changed the file in between.
///
/// A save hands the version it was based on to the library, whose fingerprint check refuses to
/// overwrite a file that changed; the editor then offers the user a choice (``ScriptConflict``)
/// instead of losing either text. Each entry also keeps the line break that separated the
/// metadata block from the code, which the editor does not show, so that saving writes it back
/// and every blank line the user wrote stays where it was.
final class LoadedScripts: @unchecked Sendable {
    /// One script as read.
    struct Entry: Sendable {
        var stored: StoredScript
        /// The line break between the metadata block and the code; empty when there was none.
        var separator: String
    }

    private let lock = NSLock()
    private var entries: [ScriptID: Entry] = [:]

    init() {}

    /// The version of `id` the editor last read or saved.
    func entry(_ id: ScriptID) -> Entry? {
        lock.withLock { entries[id] }
    }

    /// Remembers `stored` as the version on screen and returns it as the editor shows it.
    @discardableResult
    func remember(_ stored: StoredScript, site: Site? = nil) -> OpenedScript {
        let body = stored.script.body
        let separator = Self.separator(of: body)
        lock.withLock { entries[stored.id] = Entry(stored: stored, separator: separator) }
        return OpenedScript(document: Self.document(for: stored, site: site), code: String(body.dropFirst(separator.count)))
    }

    /// What the editor calls `stored`: the site's script when `site` is given, otherwise a named one.
    static func document(for stored: StoredScript, site: Site?) -> ScriptDocument {
        let rules = stored.script.siteRules
        return ScriptDocument(
            id: stored.id.rawValue, name: stored.name, role: site.map { .site($0.displayName) } ?? .named,
            matchPatterns: rules.filter { !$0.kind.isExclusion }.map(\.text),
            excludePatterns: rules.filter { $0.kind.isExclusion }.map(\.text),
            runAt: stored.script.runAt?.rawValue)
    }

    /// The one line break that conventionally follows the metadata block (`\n` or `\r\n`).
    static func separator(of body: String) -> String {
        if body.hasPrefix("\r\n") { return "\r\n" }
        if body.hasPrefix("\n") { return "\n" }
        return ""
    }
}
