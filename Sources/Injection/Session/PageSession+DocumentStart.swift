import Foundation
import GMAPI
import UserScripts
import WebDriver

extension PageSession {
    /// One `document-start` userscript installed before a navigation.
    struct DocumentStartRun: Sendable {
        let scriptID: ScriptID
        let runID: String
        let entry: RuntimeEntry
        let prepared: PreparedScript
        let body: ScriptBody
        /// DevTools' identifier of the installed source, to remove it after the navigation.
        let identifier: String?
    }

    /// Whether this session can run scripts before the page's own (Chromium, through DevTools'
    /// `Page.addScriptToEvaluateOnNewDocument`). WebKit's classic WebDriver has no such hook.
    public var runsDocumentStartScripts: Bool { session.offersChromeDevTools }

    /// Installs `document-start` userscripts so that they run in the next document at exactly
    /// `url`, before the page's first script, with their GM API; call before ``open(_:loadTimeout:)``
    /// and collect their results with ``collectDocumentStartRuns()`` after it.
    ///
    /// Each script travels inside a source of its own, evaluated by the engine at the start of
    /// every new document: it checks the address first (a script for one page never runs on
    /// another, nor after a redirect), installs the runtime (`Action.js`, `GM.js`) under an entry
    /// chosen here, and starts the run, which stays in the page until PageScript collects it. Its
    /// work (values, requests) is done when it is collected; a request it awaits waits until then.
    ///
    /// - Returns: The IDs of the scripts installed; none when the engine has no such hook (they
    ///   then run after the load, reported as `ranAt: document-end`).
    public func installDocumentStartScripts(_ scripts: [(script: UserScript, id: ScriptID)], url: String, host: GMHost,
                                            timeout: Double? = nil) async throws(InjectionError) -> Set<ScriptID> {
        guard runsDocumentStartScripts, !scripts.isEmpty else { return [] }
        await lowerContentSecurityPolicy()
        var installed: Set<ScriptID> = []
        for (script, id) in scripts {
            guard let installation = try await documentStartInstallation(of: script, id: id, url: url, host: host, timeout: timeout) else { continue }
            let reply: JSONValue
            do {
                reply = try await session.chromeDevTools("Page.addScriptToEvaluateOnNewDocument", parameters: ["source": .string(installation.source)],
                                                         timeout: 10)
            } catch {
                continue
            }
            expectDocumentStartRuns([installation.installed(as: reply["identifier"]?.stringValue)])
            installed.insert(id)
        }
        return installed
    }

    /// One `document-start` userscript made ready for a document at exactly `url`, for a caller
    /// that adds the source to the browser itself (``DocumentStartInstallation``); `nil` when
    /// the script's code does not parse (it then fails where it runs later, with the reason).
    ///
    /// The run's ID and runtime entry are fresh, so installations made for several tabs at once
    /// never meet. Once the caller has added the source, hand the installation to
    /// ``expectDocumentStartRuns(_:)`` on the session that will see the document.
    public func documentStartInstallation(of script: UserScript, id: ScriptID, url: String, host: GMHost,
                                          timeout: Double? = nil) async throws(InjectionError) -> DocumentStartInstallation? {
        let userScript = try await host.prepare(script, id: id)
        guard let prepared = try? PreparedScript(script.text, mode: .userscript, userScript: userScript) else { return nil }
        let entry = RuntimeEntry.random()
        let runID = "start-" + String(RuntimeEntry.random().key.prefix(16))
        let (source, body) = try Self.documentStartSource(prepared, run: runID, url: url, entry: entry, dialogs: dialogs,
                                                          deadline: timeout ?? scriptTimeout)
        let run = DocumentStartRun(scriptID: id, runID: runID, entry: entry, prepared: prepared, body: body, identifier: nil)
        return DocumentStartInstallation(scriptID: id, url: url, source: source, run: run, userScript: userScript)
    }

    /// Tells the session that `installations` were added to the browser for the document about
    /// to open, so that ``collectDocumentStartRuns()`` collects and serves their runs.
    public func expectDocumentStartRuns(_ installations: [DocumentStartInstallation]) {
        state.update { state in
            for installation in installations {
                state.documentStartRuns.append(installation.run)
                state.userScriptRuns.append((installation.run.runID, installation.userScript))
            }
        }
    }

    /// The results of the `document-start` scripts installed for the document now open, by
    /// script ID, each served (values, requests) like any run. The sources are removed, so later
    /// navigations do not run them again. A script that did not run (the page went elsewhere) is
    /// left out, for the caller to run now.
    public func collectDocumentStartRuns() async throws(InjectionError) -> [ScriptID: ScriptResult] {
        let runs = state.update { state -> [DocumentStartRun] in
            defer { state.documentStartRuns = [] }
            return state.documentStartRuns
        }
        var results: [ScriptID: ScriptResult] = [:]
        for run in runs {
            if let identifier = run.identifier {
                _ = try? await session.chromeDevTools("Page.removeScriptToEvaluateOnNewDocument", parameters: ["identifier": .string(identifier)], timeout: 10)
            }
            guard let userScript = run.prepared.userScript else { continue }
            let outcome = try await execute(ScriptBody.call(entry: run.entry), entry: run.entry,
                                            request: RuntimeRequest.collect(id: run.runID, wait: false), timeout: scriptTimeout + Self.transportMargin,
                                            confidential: true)
            guard case let .reply(first) = outcome, first.missingRun == nil, first.refusedAt == nil else { continue }
            let served = try await serveUserScript(userScript, run: run.runID, entry: run.entry, first: first, seconds: scriptTimeout,
                                                   deadline: Date().addingTimeInterval(scriptTimeout))
            let placement = run.body.placements[0]
            let (result, _) = try served.reply.result(ofScript: 0, prepared: run.prepared, placement: placement)
            results[run.scriptID] = result.with(userscript: served.activity)
        }
        return results
    }

    /// The source DevTools evaluates at the start of each new document: a function that returns
    /// at once unless the document is the top one and at `url`, then the same lines a runtime installation and a
    /// run would send, the body starting on the source's third line (where chromedriver puts an
    /// Execute Script body, so the runtime's line offset is the same as for later calls).
    static func documentStartSource(_ prepared: PreparedScript, run id: String, url: String, entry: RuntimeEntry,
                                    dialogs: DialogPolicy, deadline: Double) throws(InjectionError) -> (source: String, body: ScriptBody) {
        let body = try ScriptBody.installingAndRunning([prepared], entry: entry)
        let request = RuntimeRequest.run(id: id, requiredURL: url, deadline: deadline, dialogs: dialogs, scripts: [prepared], body: body)
        let source = "(function () {\nif (window.top !== window || location.href !== " + JSONValue.string(url).serialized + ") { return; }\n"
            + ScriptBody.embedding(request, in: body.text, entry: entry) + "\n})();"
        return (source, body)
    }
}
