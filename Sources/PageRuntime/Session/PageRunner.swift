import Engines
import Foundation
import SystemSupport
import WebDriver

/// Opens a page in a browser, hands it to a body of work, and always cleans up: the session is
/// deleted and every process PageScript started is stopped, on success and on every error.
///
/// Each step is recorded in ``SystemSupport/PhaseTimeline/current`` when one is set: the
/// work before it (`prepare`), the engine's own (`display`, `driver`), then `session`, `document-start install`, `navigation`,
/// `script` (the body) and `teardown`.
///
/// ```swift
/// let result = try await PageRunner.withPage(on: .local(.webkit), url: "http://127.0.0.1:8080/", scriptTimeout: 30) { page, context in
///     try await page.run(script: "document.title")
/// }
/// ```
public enum PageRunner {
    /// Everything that can stop a page from being opened or a script from being run.
    public enum Failure: Error, Sendable, CustomStringConvertible {
        /// The engine is missing or did not start.
        case engine(EngineError)
        /// The page or the script failed to run (navigation, timeout, protocol, driver).
        case injection(InjectionError)

        public var description: String {
            switch self {
            case let .engine(error): error.description
            case let .injection(error): error.description
            }
        }
    }

    /// Opens `url` on `choice` and runs `body` with the page session and its context.
    ///
    /// - Parameters:
    ///   - choice: The engine or endpoint.
    ///   - url: The page's address (already resolved, see ``PageAddress``), or `nil` to stay on
    ///     the page the browser shows (a browser PageScript attached to).
    ///   - scriptTimeout: How long each script may run, in seconds.
    ///   - loadTimeout: How long the page may take to load, in seconds (60 when `nil`).
    ///   - dialogs: How dialogs are answered while scripts run.
    ///   - bypassesContentSecurityPolicy: Whether to lift the page's Content-Security-Policy for
    ///     the whole page (``PageSession/bypassesContentSecurityPolicy``; off by default).
    ///   - startupTimeout: How long the engine may take to start a browser, in seconds.
    ///   - waitUntil: What the navigation waits for before `body` runs.
    ///   - beforeOpening: Work to do on the session before it navigates (installing
    ///     `document-start` scripts, ``PageSession/installDocumentStartScripts(_:url:host:timeout:)``).
    ///   - body: The work to do on the page.
    public static func withPage<Output: Sendable>(
        on choice: EngineChoice,
        url: String?,
        scriptTimeout: Double,
        loadTimeout: Double? = nil,
        dialogs: DialogPolicy = .dismiss,
        bypassesContentSecurityPolicy: Bool = false,
        startupTimeout: Double = 30,
        waitUntil: LoadWait = .load,
        beforeOpening: (@Sendable (PageSession) async throws(InjectionError) -> Void)? = nil,
        body: @Sendable (PageSession, PageContext) async throws(Failure) -> Output
    ) async throws(Failure) -> Output {
        let opened = try await open(on: choice, url: url, scriptTimeout: scriptTimeout, loadTimeout: loadTimeout, dialogs: dialogs,
                                    bypassesContentSecurityPolicy: bypassesContentSecurityPolicy, startupTimeout: startupTimeout,
                                    waitUntil: waitUntil, beforeOpening: beforeOpening)
        do throws(Failure) {
            let output = try await body(opened.page, opened.context)
            PhaseTimeline.current?.end("script")
            await opened.close()
            PhaseTimeline.current?.end("teardown")
            return output
        } catch {
            PhaseTimeline.current?.end("script")
            await opened.close(after: error)
            PhaseTimeline.current?.end("teardown")
            // A script that blocked its page left nothing to collect but the page it ran on.
            if case let .injection(.timedOut(seconds, nil)) = error {
                let timeout = InjectionError.timeoutError(seconds: seconds)
                throw .injection(.timedOut(seconds: seconds, partial: ScriptResult(context: opened.context, value: nil, console: [], error: timeout,
                                                                                   dialogs: opened.page.takePageDialogs())))
            }
            throw error
        }
    }

    /// Opens `url` on `choice` and returns the open page, for work that outlives one call (the
    /// editor, which may replace a stuck page with a new one). Everything started is stopped
    /// again when opening fails; after success, ``OpenedPage/close(after:)`` does it.
    ///
    /// The parameters are those of ``withPage(on:url:scriptTimeout:loadTimeout:dialogs:bypassesContentSecurityPolicy:startupTimeout:waitUntil:beforeOpening:body:)``.
    public static func open(
        on choice: EngineChoice,
        url: String?,
        scriptTimeout: Double,
        loadTimeout: Double? = nil,
        dialogs: DialogPolicy = .dismiss,
        bypassesContentSecurityPolicy: Bool = false,
        startupTimeout: Double = 30,
        waitUntil: LoadWait = .load,
        beforeOpening: (@Sendable (PageSession) async throws(InjectionError) -> Void)? = nil
    ) async throws(Failure) -> OpenedPage {
        PhaseTimeline.current?.end("prepare")
        let engine: BrowserEngine
        do {
            engine = try await choice.waiting(until: waitUntil).start(timeout: startupTimeout)
            if engine.engine == nil { PhaseTimeline.current?.end("endpoint") }
        } catch {
            throw .engine(error)
        }
        let loadSeconds = loadTimeout ?? 60
        let driverScriptTimeout = scriptTimeout + PageSession.driverGrace
        let session: WebDriverSession
        do {
            // Dialogs are left open for PageSession, which reads them and answers by `dialogs`.
            session = try await engine.newSession(
                timeout: startupTimeout, scriptTimeout: driverScriptTimeout, pageLoadTimeout: loadSeconds, unhandledPromptBehavior: "ignore")
            PhaseTimeline.current?.end("session")
        } catch {
            await engine.stop()
            throw .engine(error)
        }
        let page = PageSession(session: session, scriptTimeout: scriptTimeout, dialogs: dialogs,
                               bypassesContentSecurityPolicy: bypassesContentSecurityPolicy, driverScriptTimeout: driverScriptTimeout,
                               waitsUntil: waitUntil)
        do {
            if let beforeOpening {
                try await beforeOpening(page)
                PhaseTimeline.current?.end("document-start install")
            }
            let context: PageContext
            if let url {
                context = try await page.open(url, loadTimeout: loadSeconds)
            } else {
                // The page the browser shows may refuse scripts (a browser's own new-tab page):
                // then its address, as the browser knows it, is the context.
                do {
                    context = try await page.context()
                } catch {
                    context = try PageContext(url: try await page.browserURL(), title: "")
                }
            }
            PhaseTimeline.current?.end("navigation")
            return OpenedPage(engine: engine, page: page, context: context)
        } catch {
            await OpenedPage.stop(engine, page, after: .injection(error))
            throw .injection(error)
        }
    }
}
