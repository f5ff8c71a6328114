import Engines

/// A page ``PageRunner/open(on:url:scriptTimeout:loadTimeout:dialogs:startupTimeout:beforeOpening:)``
/// opened: the engine under it, its session, and what it showed when it loaded. Close it once.
///
/// ```swift
/// let opened = try await PageRunner.open(on: .local(.webkit), url: "http://127.0.0.1:8080/", scriptTimeout: 30)
/// let result = try? await opened.page.run(script: "document.title")
/// await opened.close()
/// ```
public struct OpenedPage: Sendable {
    /// The engine: the local driver and browser PageScript started, or a remote endpoint.
    public let engine: BrowserEngine
    /// The page's session.
    public let page: PageSession
    /// The page as it loaded.
    public let context: PageContext

    /// Wraps an open page.
    public init(engine: BrowserEngine, page: PageSession, context: PageContext) {
        self.engine = engine
        self.page = page
        self.context = context
    }

    /// Ends the session and stops every process the engine started. After `failure`, a page
    /// stuck in a script is not asked to delete its session (it would wait for the script).
    public func close(after failure: PageRunner.Failure? = nil) async {
        await Self.stop(engine, page, after: failure)
    }

    static func stop(_ engine: BrowserEngine, _ page: PageSession, after failure: PageRunner.Failure?) async {
        let stuck = switch failure {
        case .injection(.timedOut)?, .injection(.loadTimedOut)?: true
        default: false
        }
        // Nothing is lost by stopping a throwaway browser outright; deleting its session first
        // would only wait for it to close its windows. A stuck local page is stopped outright
        // too; a remote one gets a short delete.
        let deletesSession = stuck ? engine.engine == nil : !engine.keepsNothing || failure != nil
        if deletesSession { await page.close() }
        await engine.stop()
    }
}
