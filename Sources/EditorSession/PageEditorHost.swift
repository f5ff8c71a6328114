import Foundation
import PageRuntime
import ScriptConsole
import TerminalUI
import TextInput
import UserScripts

/// The editor's host for one open page: Ctrl-R runs the script on the page through Action.js,
/// and the library provides examples, the site's script and named scripts.
///
/// Ctrl-S writes into the script on screen, guarded by the version the editor read
/// (``LoadedScripts``): a file another program changed meanwhile is never overwritten; the save
/// throws ``ScriptConflict`` with the file's new code instead.
enum PageEditorHost {
    /// What the editor's userscript runs share for the whole session.
    struct UserScriptSession: Sendable {
        /// The host half of the GM API: values of text not in the library, requests, files.
        let host: GMHost
        /// One piece of work on the page at a time.
        let turn: PageTurn
        /// Serves what scripts queue after their runs.
        let lateWork: LateWorkServer
    }

    /// The script to start the editor with: the script saved for the page's site, or a new,
    /// unsaved site script when there is none.
    static func initialScript(library: ScriptLibrary, pageURL: String, loaded: LoadedScripts) -> OpenedScript {
        guard let url = try? PageURL(pageURL) else {
            return OpenedScript(document: .siteScript(for: pageURL), code: "")
        }
        let site = Site(url: url)
        guard let stored = try? library.scriptForSite(url: url) else {
            return OpenedScript(document: .siteScript(for: site.displayName, matchPatterns: site.matchPatterns.map(\.text)), code: "")
        }
        return loaded.remember(stored, site: site)
    }

    /// A script's code as the examples menu shows it: the body without the blank lines that
    /// separate it from the metadata block.
    static func exampleBody(of script: UserScript) -> String {
        String(script.body.drop { $0 == "\n" || $0 == "\r\n" })
    }

    /// Runs the editor's text: as a userscript, with the GM API its `@grant` lines ask for, when it
    /// has its own `==UserScript==` block; otherwise as console code, like `run -e`. The session's
    /// `host` keeps the values of text that is not in the library from one run to the next, and
    /// answers requests the script makes after its run (see ``LateWorkServer``).
    ///
    /// A userscript also runs in every frame of the page whose address its `@match` and
    /// `@include` rules claim (unless it has `@noframes`), as a manager runs it; each frame's
    /// outcome joins the console, under a line naming the frame.
    ///
    /// The tabs it asks for with `GM_openInTab` open afterwards (``EditorTabs``): in the editor's
    /// browser, each with its own matching scripts, or, for `tabs` given (a borrowed page), handed
    /// over there for the page's owner to open.
    static func run(_ code: String, on page: PageSession, library: ScriptLibrary, host: GMHost,
                    tabs: EditorTabs.Requests? = nil) async throws -> ScriptResult {
        let userScript = UserScript(text: code, fallbackName: "Editor script")
        guard userScript.hasMetadataBlock else { return try await page.run(script: code) }
        // With the @name and @namespace of a library script, the text runs as that script.
        let installed = try? library.script(sameAs: userScript)?.id
        let top = try await page.run(userScript: userScript, id: installed, host: host)
        var console = top.console
        if top.userscript?.tabs.isEmpty == false {
            if let tabs {
                console += EditorTabs.handOver(for: top, to: tabs)
            } else {
                console += await EditorTabs.open(for: top, script: userScript, id: installed, on: page, library: library, host: host)
            }
        }
        let rules = userScript.interpretation.rules
        guard !userScript.interpretation.noFrames, !rules.isEmpty else {
            return ScriptResult(context: top.context, value: top.value, console: console, error: top.error, dialogs: top.dialogs,
                                userscript: top.userscript)
        }
        let matcher = ScriptMatcher([(id: ScriptID("editor"), rules: rules)])
        _ = try await page.visitFrames { _, frame throws(InjectionError) in
            guard let address = try? await frame.browserURL(), let url = try? PageURL(address), !matcher.matches(url).isEmpty else { return }
            let result = try await frame.run(userScript: userScript, id: installed, host: host)
            console.append(ConsoleMessage(level: .info, message: "── in the frame \(address)"))
            console += result.console
            if let error = result.error {
                console.append(ConsoleMessage(level: .error, message: "\(error.name): \(error.message)"))
            } else if let value = result.value {
                console.append(ConsoleMessage(level: .info, message: "→ \(value.serialized)"))
            }
        }
        return ScriptResult(context: top.context, value: top.value, console: console, error: top.error, dialogs: top.dialogs,
                            userscript: top.userscript)
    }

    /// An editor host for `page`, saving and loading through `library`.
    ///
    /// - Parameters:
    ///   - page: The open page.
    ///   - pageURL: The page's address, for the site's script and the form's default pattern.
    ///   - library: The user's script library.
    ///   - loaded: The versions of the scripts the editor has read.
    ///   - busy: Marked while a script runs on the page.
    ///   - session: The session's userscript host, turn-taking and late-work server.
    ///   - tabs: Where the tabs runs ask for go, on a borrowed page; `nil` opens them in the
    ///     editor's browser.
    ///   - notify: Tells the editor what a run reported by itself: `GM_setClipboard` text goes to
    ///     the terminal's clipboard.
    static func make(page: EditorPage, pageURL: String, library: ScriptLibrary, loaded: LoadedScripts, busy: BusyFlag,
                     session: UserScriptSession, file: EditedFile? = nil, tabs: EditorTabs.Requests? = nil,
                     notify: @escaping @Sendable (EditorNotice) -> Void = { _ in }) -> EditorHost {
        let runner = ClosureScriptRunner { script in
            do {
                let result = try await session.turn.during {
                    try await busy.during { try await run(script, on: page.page, library: library, host: session.host, tabs: tabs) }
                }
                page.saw(result.context.url)
                session.lateWork.scriptRan()
                for copied in result.userscript?.clipboard ?? [] { notify(.clipboard(copied.data)) }
                return ScriptRunResult(result)
            } catch InjectionError.timedOut(let seconds, _) {
                // An endless loop outlasts its timeout and leaves the page deaf to every later run.
                let timedOut = InjectionError.timedOut(seconds: seconds)
                let context: PageContext?
                do {
                    context = try await busy.during { () async throws -> PageContext? in
                        await page.answers() ? nil : try await page.replace(within: session.turn)
                    }
                } catch let refused as EditorHostError {
                    throw EditorHostError(message: "\(timedOut) \(refused.message)")
                }
                guard let context else { throw EditorHostError(message: "\(timedOut)") }
                notify(.page(PageInfo(title: context.title, url: context.url), message: nil))
                throw EditorHostError(message: "\(timedOut) The page stopped answering, so PageScript "
                    + "stopped it and opened \(context.url) again; run again when ready.")
            } catch {
                throw EditorHostError(message: "\(error)")
            }
        }
        return EditorHost(
            runner: runner,
            examples: {
                try ExampleCatalog.builtIn().examples.map {
                    ScriptExample(name: $0.id, code: exampleBody(of: $0.script), summary: $0.script.value(for: "description"))
                }
            },
            save: { document, code in
                if case .file = document.role, let file { return try file.save(code) }
                return try save(code, into: document, pageURL: pageURL, library: library, loaded: loaded)
            },
            listScripts: {
                try library.scripts().map { stored in
                    let document = LoadedScripts.document(for: stored, site: nil)
                    let patterns = document.matchPatterns.isEmpty ? "on demand" : document.matchPatterns.joined(separator: " ")
                    return ScriptSummary(id: stored.id.rawValue, name: stored.name,
                                         detail: patterns + (document.runAt.map { " · \($0)" } ?? ""))
                }
            },
            openScript: { id in
                let stored = try library.script(id: ScriptID(id))
                return loaded.remember(stored, site: siteOwning(stored, pageURL: pageURL, library: library))
            },
            reloadScript: { document in
                if case .file = document.role, let file { return try file.reload() }
                guard let id = document.id else { throw EditorHostError(message: "the script was never saved") }
                let stored = try library.script(id: ScriptID(id))
                return loaded.remember(stored, site: siteOwning(stored, pageURL: pageURL, library: library))
            },
            createScript: { named in
                var script = try UserScript.make(name: named.name, matches: named.matchPatterns,
                                                 runAt: named.runAt.flatMap(RunAt.init(rawValue:)), body: named.code)
                if !named.excludePatterns.isEmpty {
                    try script.setValues(named.excludePatterns, forKey: "exclude-match")
                }
                let stored = try library.create(script)
                return loaded.remember(stored).document
            },
            reloadPage: {
                let context = try await session.turn.during { try await busy.during { try await page.page.open(try await page.page.browserURL()) } }
                page.saw(context.url)
                return PageInfo(title: context.title, url: context.url)
            },
            recoverPage: {
                let context = try await busy.during { try await page.replace(within: session.turn) }
                return (PageInfo(title: context.title, url: context.url),
                        "The script was stopped: PageScript closed the stuck page and opened \(context.url) again.")
            },
            form: ScriptFormSettings(
                matchPatterns: PatternListFormat(canBecomeValid: MatchPattern.canBecomeValid, problem: MatchPattern.problem(with:)),
                excludePatterns: PatternListFormat(allowingNone: true, canBecomeValid: MatchPattern.canBecomeValid,
                                                   problem: MatchPattern.problem(with:)),
                defaultMatchPatterns: (try? PageURL(pageURL)).map { Site(url: $0).matchPatterns.map(\.text) } ?? []))
    }

    /// Ctrl-S: `code` into the script `document` names, based on the version the editor read.
    static func save(_ code: String, into document: ScriptDocument, pageURL: String, library: ScriptLibrary,
                     loaded: LoadedScripts) throws -> SaveReceipt {
        let base = document.id.flatMap { loaded.entry(ScriptID($0)) }
        if let id = document.id, base == nil {
            throw EditorHostError(message: "the editor has no record of reading script \(id); open it again with Ctrl-O")
        }
        do {
            switch document.role {
            case .site:
                let url = try PageURL(pageURL)
                let site = Site(url: url)
                if base == nil, let appeared = try library.scriptForSite(url: url) {
                    // Someone saved a script for this site after the editor opened.
                    throw ScriptConflict(document: document, path: appeared.file.path(percentEncoded: false),
                                         change: .changed(theirs: loaded.remember(appeared, site: site).code))
                }
                let saved = try library.saveForSite(url: url, code: (base?.separator ?? "") + code, basedOn: base?.stored)
                let opened = loaded.remember(saved, site: site)
                return SaveReceipt(document: opened.document, message: "Saved the script for \(site.displayName) (\(saved.id))")
            case .file:
                throw EditorHostError(message: "the file's editor is gone; save it with Ctrl-N as a library script")
            case .named:
                guard var updated = base?.stored else { throw EditorHostError(message: "the script was never saved") }
                updated.script.setBody((base?.separator ?? "") + code)
                let saved = try library.save(updated)
                let opened = loaded.remember(saved)
                return SaveReceipt(document: opened.document, message: "Saved “\(saved.name)” (\(saved.id))")
            }
        } catch let error as LibraryError {
            switch error {
            case .changedOnDisk(let path):
                let theirs = try document.id.map { try library.script(id: ScriptID($0)) }
                guard let theirs else { throw error }
                // Their version becomes the one the editor knows only if the user loads it.
                let body = theirs.script.body
                throw ScriptConflict(document: document, path: path,
                                     change: .changed(theirs: String(body.dropFirst(LoadedScripts.separator(of: body).count))))
            case .missingOnDisk(let path):
                throw ScriptConflict(document: document, path: path, change: .deleted)
            default:
                throw error
            }
        }
    }

    /// The site whose own script `stored` is, when it is the site script of the page's site.
    static func siteOwning(_ stored: StoredScript, pageURL: String, library: ScriptLibrary) -> Site? {
        guard let url = try? PageURL(pageURL), let siteScript = try? library.scriptForSite(url: url),
              siteScript.id == stored.id else { return nil }
        return Site(url: url)
    }
}

/// A failure the editor shows as a message.
struct EditorHostError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
