import Foundation
import Injection
import TerminalUI
import UserScripts

/// The editor's host for one open page: Ctrl-R runs the script on the page through Action.js,
/// and the library provides examples, the site's script and named scripts.
enum PageEditorHost {
    /// The script to start the editor with: the body of the script saved for the page's site.
    static func initialScript(library: ScriptLibrary, pageURL: String) -> String {
        guard let url = try? PageURL(pageURL), let stored = try? library.scriptForSite(url: url) else { return "" }
        return editableBody(of: stored.script)
    }

    /// A script's code as the editor shows it: the body without the blank lines that separate it
    /// from the metadata block.
    static func editableBody(of script: UserScript) -> String {
        String(script.body.drop { $0 == "\n" || $0 == "\r\n" })
    }

    /// An editor host for `page`, saving and loading through `library`.
    ///
    /// - Parameters:
    ///   - page: The open page.
    ///   - pageURL: The page's address, for "save for this site".
    ///   - library: The user's script library.
    ///   - busy: Marked while a script runs on the page.
    static func make(page: PageSession, pageURL: String, library: ScriptLibrary, busy: BusyFlag) -> EditorHost {
        let runner = ClosureScriptRunner { script in
            do {
                return ScriptRunResult(try await busy.during { try await page.run(script: script) })
            } catch {
                throw EditorHostError(message: "\(error)")
            }
        }
        return EditorHost(
            runner: runner,
            examples: {
                try ExampleCatalog.builtIn().examples.map { ScriptExample(name: $0.id, code: editableBody(of: $0.script)) }
            },
            saveForSite: { code in
                let url = try PageURL(pageURL)
                let saved = try library.saveForSite(url: url, code: code, basedOn: library.scriptForSite(url: url))
                return "Saved for \(Site(url: url).displayName) as \(saved.id)"
            },
            scriptNames: {
                try library.scripts().map(\.name)
            },
            openScript: { name in
                let stored = try library.find(name)
                return NamedScript(
                    name: stored.name, code: editableBody(of: stored.script),
                    matchPatterns: stored.script.siteRules.filter { !$0.kind.isExclusion }.map(\.text),
                    runAt: stored.script.runAt?.rawValue ?? "")
            },
            saveNamedScript: { named in
                let script = try UserScript.make(
                    name: named.name, matches: named.matchPatterns, runAt: RunAt(rawValue: named.runAt), body: named.code)
                _ = try library.create(script)
            },
            form: ScriptFormSettings(
                matchPatterns: .patternList { pattern in
                    do {
                        _ = try MatchPattern(pattern)
                        return nil
                    } catch {
                        return "\(error)"
                    }
                },
                defaultMatchPatterns: (try? PageURL(pageURL)).map { Site(url: $0).matchPatterns.map(\.text) } ?? []))
    }
}

/// A failure the editor shows as a message.
struct EditorHostError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

extension ScriptRunResult {
    /// The editor's view of a script's outcome on the page.
    init(_ result: Injection.ScriptResult) {
        self.init(
            valueJSON: result.value?.serialized,
            console: result.console.map { ConsoleLine(level: ConsoleLine.Level($0.level), message: $0.message) },
            exception: result.error.map { ScriptException(name: $0.name, message: $0.message, line: $0.line, column: $0.column) })
    }
}

extension ConsoleLine.Level {
    /// The editor's level for a console method; one it does not colour (`trace`) reads as `log`.
    init(_ level: ConsoleMessage.Level) {
        self = ConsoleLine.Level(rawValue: level.rawValue) ?? .log
    }
}
