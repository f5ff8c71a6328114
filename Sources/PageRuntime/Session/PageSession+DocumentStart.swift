import Foundation
import GMAPI
import SystemSupport
import UserScripts

extension PageSession {
    /// One userscript run installed in a document before it exists.
    struct DocumentStartRun: Sendable {
        let scriptID: ScriptID
        let runID: String
        let entry: RuntimeEntry
        let prepared: PreparedScript
        let body: ScriptBody
    }

    /// Whether this session can run scripts before the page's own: any session that offers
    /// WebDriver BiDi (Firefox; a remote endpoint asked for it) through BiDi's
    /// `script.addPreloadScript`, the standard way; Chromium that PageScript started through
    /// DevTools' `Page.addScriptToEvaluateOnNewDocument`. WebKit's classic WebDriver has no such
    /// hook.
    public var runsDocumentStartScripts: Bool { documentHook != nil }

    /// How this session adds a source the browser evaluates at the start of each new document.
    var documentHook: DocumentSourceLayout? {
        session.offersBiDi ? .bidiPreload : session.offersChromeDevTools ? .devTools : nil
    }

    /// Installs `document-start` userscripts so that they run in the next document at exactly
    /// `url`, before the page's first script, with their GM API; call before ``open(_:loadTimeout:)``
    /// and collect their results with ``collectDocumentStartRuns()`` after it.
    ///
    /// The runtime (`Action.js`, `GM.js`) travels in a source of its own, evaluated by the engine
    /// at the start of every new document, and each script in another: they check the address
    /// first (a script for one page never runs on another, nor after a redirect), then install
    /// the runtime under an entry chosen here and start the runs, which stay in the page until
    /// PageScript collects them. Their work (values, requests) is done when they are collected; a
    /// request a script awaits waits until then.
    ///
    /// - Returns: The IDs of the scripts installed; none when the engine has no such hook (they
    ///   then run after the load, reported as `ranAt: document-end`).
    public func installDocumentStartScripts(_ scripts: [(script: UserScript, id: ScriptID)], url: String, host: GMHost,
                                            timeout: Double? = nil) async throws(InjectionError) -> Set<ScriptID> {
        guard let hook = documentHook, !scripts.isEmpty else { return [] }
        await liftContentSecurityPolicyIfAsked()
        guard let installation = try await documentInstallation(of: scripts, url: url, host: host, timeout: timeout, layout: hook) else { return [] }
        var identifiers: [String] = []
        var installed: Set<ScriptID> = []
        for (index, source) in installation.sources.enumerated() {
            guard let identifier = await addDocumentSource(source, hook: hook) else {
                // Without the runtime nothing can run; without a script's source, that script
                // runs after the load instead.
                if index == 0 { return [] }
                continue
            }
            identifiers.append(identifier)
            if index > 0 { installed.insert(installation.runs[index - 1].scriptID) }
        }
        expectDocumentRuns(installation)
        state.update { $0.documentStartSources += identifiers }
        return installed
    }

    /// Userscripts made ready to run in the next document at exactly `url`, each at its own
    /// `@run-at` moment, for a caller that adds the sources to the browser itself
    /// (``DocumentInstallation``); `nil` when none of them can (their code does not parse: they
    /// fail where they run later, with the reason; `context-menu` scripts never run by themselves).
    ///
    /// The runtime's entry and the runs' IDs are fresh, so installations made for several tabs at
    /// once never meet. Once the caller has added the sources, hand the installation to
    /// ``expectDocumentRuns(_:)`` on the session that will see the document.
    ///
    /// - Parameter layout: How the browser takes the sources: DevTools' (the default) or BiDi's.
    public func documentInstallation(of scripts: [(script: UserScript, id: ScriptID)], url: String, host: GMHost,
                                     timeout: Double? = nil, layout: DocumentSourceLayout = .devTools) async throws(InjectionError) -> DocumentInstallation? {
        let entry = RuntimeEntry.random()
        var sources: [String] = []
        var runs: [DocumentStartRun] = []
        for (script, id) in scripts {
            guard let runAt = script.interpretation.runMode.runAt else { continue }
            let userScript = try await host.prepare(script, id: id, environment: gmEnvironment)
            guard let prepared = try? PreparedScript(script.text, mode: .userscript, userScript: userScript) else { continue }
            let runID = "start-" + String(RuntimeEntry.random().key.prefix(16))
            let body = try ScriptBody.run([prepared], entry: entry)
            let request = RuntimeRequest.run(id: runID, requiredURL: url, deadline: timeout ?? scriptTimeout, dialogs: dialogs, scripts: [prepared],
                                             body: body, startsAt: Self.startingMoment(of: runAt), unattended: true)
            sources.append(Self.documentSource(ScriptBody.embedding(request, in: body.text, entry: entry), url: url, layout: layout))
            runs.append(DocumentStartRun(scriptID: id, runID: runID, entry: entry, prepared: prepared, body: body))
        }
        guard !runs.isEmpty else { return nil }
        let runtime = Self.documentSource(ScriptBody.embedding(RuntimeRequest.context, in: try ScriptBody.install(entry: entry, userscriptAPI: true), entry: entry),
                                          url: url, layout: layout)
        return DocumentInstallation(url: url, sources: [runtime] + sources, entry: entry, runs: runs)
    }

    /// Tells the session that `installation`'s sources were added to the browser for the document
    /// about to open, so that ``collectDocumentStartRuns()`` collects and serves its runs.
    public func expectDocumentRuns(_ installation: DocumentInstallation) {
        state.update { state in
            // Its runtime carries the GM API's page half: runs there need not bring it.
            state.userscriptAPIEntry = installation.entry
            for run in installation.runs {
                state.documentStartRuns.append(run)
                if let userScript = run.prepared.userScript { state.userScriptRuns.append((run.runID, userScript)) }
            }
        }
    }

    /// The results of the scripts installed for the document now open
    /// (``installDocumentStartScripts(_:url:host:timeout:)``, ``expectDocumentRuns(_:)``), by
    /// script ID, each served (values, requests) like any run; a run that has not ended yet (a
    /// `document-idle` script waiting for the load, a script awaiting something) is waited for,
    /// as long as any run. The sources this session added are removed, so later navigations do
    /// not run them again. A script that did not run (the page went elsewhere, or its address
    /// changed before the script's moment) is left out, for the caller to run now.
    ///
    /// The runtime the scripts ran in becomes the document's runtime, when it has none yet: later
    /// runs, menu commands and the work scripts queue after their runs go through it.
    public func collectDocumentStartRuns() async throws(InjectionError) -> [ScriptID: ScriptResult] {
        let (runs, sources) = state.update { state -> ([DocumentStartRun], [String]) in
            defer { (state.documentStartRuns, state.documentStartSources) = ([], []) }
            return (state.documentStartRuns, state.documentStartSources)
        }
        await removeDocumentSources(sources)
        var results: [ScriptID: ScriptResult] = [:]
        for run in runs {
            guard let userScript = run.prepared.userScript else { continue }
            let outcome = try await execute(ScriptBody.call(entry: run.entry), entry: run.entry,
                                            request: RuntimeRequest.collect(id: run.runID, wait: false), timeout: scriptTimeout + Self.transportMargin,
                                            confidential: true)
            guard case let .reply(first) = outcome, first.missingRun == nil, first.refusedAt == nil else { continue }
            state.update { state in
                if state.entry == nil { state.entry = run.entry }
            }
            let served = try await serveUserScript(userScript, run: run.runID, entry: run.entry, first: first, seconds: scriptTimeout,
                                                   deadline: Date().addingTimeInterval(scriptTimeout))
            let placement = run.body.placements[0]
            let (result, _) = try served.reply.result(ofScript: 0, prepared: run.prepared, placement: placement)
            results[run.scriptID] = result.with(userscript: served.activity)
        }
        return results
    }

    /// Removes the sources ``installDocumentStartScripts(_:url:host:timeout:)`` added and forgets
    /// their runs, without collecting them: for a caller whose page did not load (or is not to be
    /// run on), so that the next document this session opens starts clean.
    public func discardDocumentStartScripts() async {
        let sources = state.update { state -> [String] in
            defer { (state.documentStartRuns, state.documentStartSources) = ([], []) }
            return state.documentStartSources
        }
        await removeDocumentSources(sources)
    }

    /// Adds `source` for the browser to evaluate at the start of each new document; its
    /// identifier, or `nil` when the browser refused it.
    private func addDocumentSource(_ source: String, hook: DocumentSourceLayout) async -> String? {
        switch hook {
        case .devTools:
            let reply = try? await devTools("Page.addScriptToEvaluateOnNewDocument", parameters: ["source": .string(source)], timeout: 10)
            return reply?["identifier"]?.stringValue
        case .bidiPreload:
            let reply = try? await session.bidi().send("script.addPreloadScript", parameters: ["functionDeclaration": .string(source)])
            return reply?["script"]?.stringValue
        }
    }

    /// Removes the sources ``addDocumentSource(_:hook:)`` added, so that later documents do not
    /// run them.
    private func removeDocumentSources(_ identifiers: [String]) async {
        guard let hook = documentHook else { return }
        for identifier in identifiers {
            switch hook {
            case .devTools:
                _ = try? await devTools("Page.removeScriptToEvaluateOnNewDocument", parameters: ["identifier": .string(identifier)], timeout: 10)
            case .bidiPreload:
                _ = try? await session.bidi().send("script.removePreloadScript", parameters: ["script": .string(identifier)])
            }
        }
    }

    /// When a run installed at the start of a document starts its script: `nil` at once.
    static func startingMoment(of runAt: RunAt) -> String? {
        switch runAt {
        case .documentStart: nil
        case .documentBody, .documentEnd: "DOMContentLoaded"
        case .documentIdle: "load"
        }
    }

    /// A source the browser evaluates at the start of each new document: a function that returns
    /// at once unless the document is the top one and at `url`, then `body`. For DevTools, a
    /// call of that function with `body` on the source's third line (where chromedriver puts an
    /// Execute Script body); for BiDi, the function itself (`script.addPreloadScript` calls it)
    /// with `body` on its second line (where geckodriver puts one): either way the runtime's
    /// line offset is the same as for the Execute Script calls that follow.
    static func documentSource(_ body: String, url: String, layout: DocumentSourceLayout = .devTools) -> String {
        let check = "if (window.top !== window || location.href !== " + JSONValue.string(url).serialized + ") { return; }"
        switch layout {
        case .devTools: return "(function () {\n" + check + "\n" + body + "\n})();"
        case .bidiPreload: return "function () { " + check + "\n" + body + "\n}"
        }
    }
}
