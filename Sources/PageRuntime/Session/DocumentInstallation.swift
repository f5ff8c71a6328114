import UserScripts

/// Userscripts made ready to run in one document before it exists, for a caller that adds the
/// sources to the browser itself: `browse` on Chromium, which follows every tab on a DevTools
/// connection of its own and adds the sources while a tab's document request waits.
///
/// The first source installs the runtime (`Action.js`, `GM.js`) in the document, before the page's
/// first script; each of the others starts one script's run, at the script's own `@run-at`
/// moment: at once for `document-start`, at `DOMContentLoaded` for `document-body` and
/// `document-end`, after the load event for `document-idle`. So the scripts run at their moments
/// in every tab, including tabs nobody looks at; each run waits in its document until it is
/// collected, and its GM API work is done then. Every source returns at once in any document
/// other than the top one at exactly ``url``.
///
/// Made by ``PageSession/documentInstallation(of:url:host:timeout:layout:)``; add each of ``sources`` in
/// order with DevTools' `Page.addScriptToEvaluateOnNewDocument`, then tell the session that sees
/// the document with ``PageSession/expectDocumentRuns(_:)`` and collect the results with
/// ``PageSession/collectDocumentStartRuns()`` once the document has loaded.
public struct DocumentInstallation: Sendable {
    /// The only address the sources run at (top document, exact URL).
    public let url: String
    /// The sources to add, in this order: the runtime's installation, then one run per script.
    public let sources: [String]
    /// The runtime the sources install, which the document keeps using once its runs are collected.
    let entry: RuntimeEntry
    let runs: [PageSession.DocumentStartRun]

    /// The scripts that run, in the order of their sources.
    public var scriptIDs: [ScriptID] { runs.map(\.scriptID) }
}

/// How the browser takes a ``DocumentInstallation``'s sources, which decides their layout.
public enum DocumentSourceLayout: Sendable {
    /// DevTools' `Page.addScriptToEvaluateOnNewDocument`: each source is a script.
    case devTools
    /// WebDriver BiDi's `script.addPreloadScript`: each source is a function declaration.
    case bidiPreload
}
