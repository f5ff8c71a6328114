import UserScripts

/// A `document-start` userscript made ready for one document address, for a caller that adds
/// its source to the browser itself: `browse` on Chromium, which follows every tab on a DevTools
/// connection of its own and adds the sources while a tab's document request waits.
///
/// Made by ``PageSession/documentStartInstallation(of:id:url:host:timeout:)``; add ``source``
/// with DevTools' `Page.addScriptToEvaluateOnNewDocument`, then tell the session that sees the
/// document with ``PageSession/expectDocumentStartRuns(_:)`` and collect the result with
/// ``PageSession/collectDocumentStartRuns()`` once the document has loaded.
public struct DocumentStartInstallation: Sendable {
    /// The script.
    public let scriptID: ScriptID
    /// The only address the source runs at (top document, exact URL).
    public let url: String
    /// The source to add: it returns at once in any other document, and otherwise installs the
    /// runtime and starts the script's run, which waits in the page to be collected.
    public let source: String
    let run: PageSession.DocumentStartRun
    let userScript: GMScriptRun

    /// The same installation, added by the session's own DevTools hook under `identifier`.
    func installed(as identifier: String?) -> DocumentStartInstallation {
        let run = PageSession.DocumentStartRun(scriptID: run.scriptID, runID: run.runID, entry: run.entry, prepared: run.prepared,
                                               body: run.body, identifier: identifier)
        return DocumentStartInstallation(scriptID: scriptID, url: url, source: source, run: run, userScript: userScript)
    }
}
