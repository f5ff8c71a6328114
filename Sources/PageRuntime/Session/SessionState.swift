import Foundation
import SystemSupport

/// What a ``PageSession`` remembers between calls, behind a lock (runs may overlap with the
/// editor's watchdog and with cancellation).
final class SessionState: @unchecked Sendable {
    struct Values {
        /// The runtime's entry point in the page's current document, once installed.
        var entry: RuntimeEntry?
        /// What scripts logged and asked after their runs ended, not handed over yet.
        var laterOutput: [LateScriptOutput] = []
        /// The isolated world made in a document for scripts that ask for one (its loader, as
        /// DevTools names the document, and the session on that world).
        var isolatedWorld: (loader: String, page: PageSession)?
        /// The entry whose runtime is known to hold the GM API's page half (a run brought it, or
        /// it is the browser's own installation at document start, which has it); a userscript's
        /// run for another entry brings it again, which costs only its size.
        var userscriptAPIEntry: RuntimeEntry?
        /// The names of entries a function of the page's answered the challenge of wrongly
        /// (``RuntimeEntry``): that function learnt the challenge, so no call goes through them
        /// again.
        var spentEntries: Set<String> = []
        /// Whether `Page.setBypassCSP` was asked for.
        var askedToBypassCSP = false
        /// Whether the browser installs the runtime itself in every new document of the session
        /// (``PageSession/openAndRun(_:script:mode:input:timeout:skippingHTTPErrors:)`` on Chromium).
        var preinstallation = Preinstallation.notAsked
        /// The entry a visit (``PageSession/openAndRun(_:script:mode:input:timeout:skippingHTTPErrors:)``)
        /// installs the runtime under when the browser does not: the same in every document the
        /// session opens, so that the installation's text is too and the engine compiles it once
        /// rather than in every document. The challenge keeps a page that learnt the name in one
        /// document from posing as the runtime in the next (``RuntimeEntry``); drawn again when a
        /// visit under it found something else under the name (or failed to install).
        var documentEntry = RuntimeEntry.random()
        /// Runs started, for their IDs.
        var runCount = 0
        /// What every run ID of this session carries, so that IDs are unique beyond it: a
        /// session that takes a document's runtime over (``PageSession/resumeRuntime(_:)``)
        /// gets the runs another session started there, and must never take one of theirs for
        /// one of its own (their work would be done for the wrong script).
        let runTag = String(UInt64.random(in: 0...UInt64.max), radix: 36)
        /// The driver's script timeout as last set, in seconds.
        var driverScriptTimeout: Double?
        /// Whether the session ends after a page that did not load in time (a batch's does), so
        /// that stopping the page's load is not worth waiting for.
        var endsAfterLoadTimeouts = false
        /// How long the last page load took, in seconds.
        var lastLoadDuration: Double = 0
        /// The load timeout that ran out before the current document finished loading, when its
        /// scripts run on it as it was (``PageContext/unfinishedLoad``).
        var unfinishedLoad: Double?
        /// How long a userscript run's last delivery waits on in the page for it to be left
        /// (``PageSession/keepWatchingAfterUserScriptRuns(for:)``).
        var watchAfterRuns: Duration?
        /// Dialogs the page opened that no result has reported yet.
        var pageDialogs: [ScriptDialog] = []
        /// The latest userscript runs by run ID, for the work their scripts queue.
        var userScriptRuns: [(id: String, run: GMScriptRun)] = []
        /// The userscript runs served in the runtime of ``entry``, by run ID: those that hear of
        /// value changes made elsewhere (``PageSession/serveLateUserScriptWork()``).
        var runtimeRuns: (entry: RuntimeEntry, ids: [String])?
        /// The tab the session's page is in, for `GM_getTab` (``PageSession/identify(asTab:)``).
        var tab: String?
        /// Userscript runs installed for the next document, before it starts.
        var documentStartRuns: [PageSession.DocumentStartRun] = []
        /// DevTools' identifiers of the sources this session added for them, removed once collected.
        var documentStartSources: [String] = []
        /// The last script prepared for a run: the editor and a warm loop run the same text again,
        /// which is then not read again (``PreparedScript/init(_:mode:userScript:reusing:)``).
        var lastPrepared: PreparedScript?
        /// The `performance.timeOrigin` of the last document a visit checked its load in.
        var lastLoadOrigin: JSONValue?
        /// Where the browser's record of the window's documents stood when the last navigation
        /// was asked for (WebKit's inspector; ``WebDriverSession/documentRecordMark``).
        var navigationRecordMark: Int?
        /// The last run's body, for a run of the same code through the same entry.
        var lastRunBody: (key: RunBodyKey, body: ScriptBody)?
    }

    /// What a run's body is made of: the same key makes the same body.
    struct RunBodyKey: Equatable {
        let entry: RuntimeEntry
        let addingUserscriptAPI: Bool
        let code: String
        let prelude: String
        let parameters: [String]
        let isAsync: Bool
    }

    /// The runtime the browser installs at the start of every new document, when asked to.
    enum Preinstallation {
        /// Not asked for yet.
        case notAsked
        /// Installed under this entry in every new top-level document from then on.
        case installed(RuntimeEntry)
        /// The browser cannot (no DevTools, or it refused).
        case unavailable
    }

    private let lock = NSLock()
    private var values: Values

    init(driverScriptTimeout: Double?) {
        values = Values(driverScriptTimeout: driverScriptTimeout)
    }

    func read<Value>(_ keyPath: KeyPath<Values, Value>) -> Value {
        lock.withLock { values[keyPath: keyPath] }
    }

    @discardableResult
    func update<Output>(_ change: (inout Values) -> Output) -> Output {
        lock.withLock { change(&values) }
    }
}
