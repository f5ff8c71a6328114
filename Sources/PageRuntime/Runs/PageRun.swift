import Foundation
import SystemSupport
import UserScripts

/// What `pagescript run` asks for: the page, the script (or the library's matching scripts), and
/// the limits and answers the run works within.
public struct RunRequest: Sendable {
    /// The script to run.
    public enum Script: Sendable {
        /// JavaScript as typed (`-e`, `-f`): no GM API.
        case code(String, mode: ScriptMode)
        /// A userscript: it gets the GM API, its values under `id` when the library has it, its
        /// fetched files in `libraryDirectory`, and after it ran, the menu command `menu` it
        /// registered.
        case userScript(UserScript, id: ScriptID?, mode: ScriptMode, menu: String?, libraryDirectory: URL)
        /// The library's scripts that match the page, as planned before the browser starts;
        /// `reopen` reads the library again when the page lands elsewhere (a redirect).
        case library(PlannedScripts, reopen: @Sendable () throws -> ScriptLibrary)

        /// Whether the library's scripts run (a report of `scripts`, not of one script).
        public var isLibrary: Bool {
            if case .library = self { return true }
            return false
        }
    }

    public var engine: EngineChoice
    /// The page's address, resolved (``PageAddress/resolve(_:)``).
    public var address: String
    public var script: Script
    /// Seconds the run may take: loading included unless ``loadTimeout`` is given.
    public var timeout: Double
    /// Seconds the page may take to load; `timeout` then covers the script alone.
    public var loadTimeout: Double?
    /// Whether a page the server answered with 400 or more counts as a page that did not load
    /// (`--fail-on-http-error`): nothing runs on it. Only where the engine reports the status.
    public var failsOnHTTPError = false
    /// What the navigation waits for before the script runs (`--wait-until`).
    public var waitUntil: LoadWait = .load
    public var dialogs: DialogPolicy = .dismiss
    /// The picture of the page to save after the script ran.
    public var screenshot: ScreenshotRequest?
    /// Lift the page's Content Security Policy: only when the user asks (`--bypass-csp`).
    public var bypassesContentSecurityPolicy = false
    /// Hosts every userscript's `GM_xmlhttpRequest` may reach beyond its `@connect` lines
    /// (`--connect`; `*` for any).
    public var connecting: [String] = []
    /// Where userscripts' `GM_download` saves files (`--downloads`); `nil`: downloads are off.
    public var downloads: URL?
    /// Console code run on the same page after the script (or the library's scripts), to inspect
    /// what they did: its result is the run's value (``RunReport/inspected(_:then:)``).
    public var inspection: String?

    public init(engine: EngineChoice, address: String, script: Script, timeout: Double) {
        self.engine = engine
        self.address = address
        self.script = script
        self.timeout = timeout
    }
}

/// `pagescript run`'s one entry point: opens the page on the chosen engine, runs what the request
/// names within its budget, saves the screenshot, closes everything and reports.
///
/// ```swift
/// let request = RunRequest(engine: .local(.webKit, options: LaunchOptions()), address: "https://example.com/",
///                          script: .code("document.title", mode: .console), timeout: 30)
/// let report = try await PageRun.perform(request)
/// ```
public enum PageRun {
    /// The longest a tab `GM_openInTab` asked for may take to load, in seconds.
    static let tabLoadTimeout: Double = 20

    /// Runs `request`.
    ///
    /// - Throws: ``PageRunner/Failure`` for a run that did not complete: the engine did not start,
    ///   the page did not load, the script did not finish in time (the error names the request's
    ///   `timeout`, not what was left of it after loading), the page navigated away.
    public static func perform(_ request: RunRequest) async throws(PageRunner.Failure) -> RunReport {
        switch request.script {
        case let .code(text, mode):
            return try await runScript(request) { page, remaining throws(InjectionError) in
                try await page.run(script: text, mode: mode, timeout: remaining)
            }
        case let .userScript(script, id, mode, menu, libraryDirectory):
            let host = GMHost(libraryDirectory: libraryDirectory, connecting: request.connecting, downloads: request.downloads)
            let outcome: Result<RunReport, PageRunner.Failure>
            do throws(PageRunner.Failure) {
                outcome = .success(try await runScript(request) { page, remaining throws(InjectionError) in
                    var result = try await page.run(userScript: script, id: id, host: host, mode: mode, timeout: remaining)
                    if let menu { result = try await page.runMenuCommand(menu, of: result) }
                    // The tabs the script opened are opened now, and closed before the run ends.
                    return await page.openRequestedTabs(of: result, timeout: min(remaining, PageRun.tabLoadTimeout))
                })
            } catch {
                outcome = .failure(error)
            }
            await host.shutdown()
            return try outcome.get()
        case let .library(planned, reopen):
            return try await runLibrary(request, planned: planned, reopen: reopen)
        }
    }

    private static func runScript(
        _ request: RunRequest,
        _ body: @escaping @Sendable (PageSession, Double) async throws(InjectionError) -> ScriptResult
    ) async throws(PageRunner.Failure) -> RunReport {
        let budget = request.timeout
        let sharesBudget = request.loadTimeout == nil
        return try await onPage(request) { page, _ throws(InjectionError) in
            do throws(InjectionError) {
                // One timeout covers loading and the script (and the code inspecting what it did),
                // unless loading has its own. A page whose load ran out of that time still gets
                // the script, for a second at least, as ``PageSession/openAndRun(_:script:mode:input:timeout:skippingHTTPErrors:)`` gives it.
                var remaining = sharesBudget ? budget - page.lastLoadDuration : budget
                if page.lastLoadUnfinished { remaining = max(1, remaining) }
                guard remaining > 0 else { throw .timedOut(seconds: budget) }
                let started = ContinuousClock.now
                let result = try await body(page, remaining)
                guard let inspection = request.inspection else {
                    return .script(result, screenshot: try await capture(page, to: request.screenshot))
                }
                let spent = ContinuousClock.now - started
                let left = remaining - Double(spent.components.seconds) - Double(spent.components.attoseconds) / 1e18
                guard left > 0 else { throw .timedOut(seconds: budget) }
                let then = try await page.run(script: inspection, mode: .console, timeout: left)
                return .inspected(.script(result, screenshot: try await capture(page, to: request.screenshot)), then: then)
            } catch {
                // A timeout is the user's, not what was left of it after loading.
                if case let .timedOut(_, partial) = error { throw .timedOut(seconds: budget, partial: partial) }
                throw error
            }
        }
    }

    private static func runLibrary(
        _ request: RunRequest, planned: PlannedScripts, reopen: @escaping @Sendable () throws -> ScriptLibrary
    ) async throws(PageRunner.Failure) -> RunReport {
        // The library's index and matcher are let go before the browser starts: only the scripts
        // for the address are kept.
        FreedMemory.returnToSystem()
        let host = GMHost(libraryDirectory: planned.libraryDirectory, connecting: request.connecting, downloads: request.downloads)
        // document-start scripts are installed before the page loads, where the engine allows.
        let early = planned.documentStart
        let address = request.address
        let outcome: Result<RunReport, PageRunner.Failure>
        do throws(PageRunner.Failure) {
            outcome = .success(try await onPage(request, beforeOpening: { page throws(InjectionError) in
                _ = try await page.installDocumentStartScripts(early, url: address, host: host)
            }) { page, context throws(InjectionError) in
                var run = try await LibraryRun.runMatching(
                    planned: planned, library: reopen, on: page, host: host, early: try await page.collectDocumentStartRuns())
                // The tabs the scripts opened are opened now, each script's in turn, and closed
                // before the run ends.
                for (index, script) in run.results.enumerated() {
                    guard case let .success(result) = script.outcome, result.userscript?.tabs.isEmpty == false else { continue }
                    let opened = await page.openRequestedTabs(of: result, timeout: min(request.timeout, PageRun.tabLoadTimeout))
                    run.results[index] = LibraryScriptResult(script: script.script, pattern: script.pattern, outcome: .success(opened), frame: script.frame)
                }
                // Code inspecting what the scripts did runs after them, on the same page.
                var then: ScriptResult?
                if let code = request.inspection { then = try await page.run(script: code, mode: .console, timeout: request.timeout) }
                let report = RunReport.library(context: context, requested: run.url, results: run.results,
                                               screenshot: try await capture(page, to: request.screenshot))
                return then.map { .inspected(report, then: $0) } ?? report
            })
        } catch {
            outcome = .failure(error)
        }
        await host.shutdown()
        return try outcome.get()
    }

    /// Saves the picture `request` asks for, atomically; returns the file's path.
    static func capture(_ page: PageSession, to request: ScreenshotRequest?) async throws(InjectionError) -> String? {
        guard let request else { return nil }
        let image = try await page.screenshot(format: request.format, fullPage: request.fullPage)
        let file = URL(fileURLWithPath: request.path)
        do {
            try Data(image).write(to: file, options: .atomic)
        } catch {
            throw .library("the screenshot cannot be saved to \(request.path): \(error.localizedDescription)")
        }
        return file.path
    }

    /// Opens the request's page on its engine and does `work` there.
    private static func onPage<Output: Sendable>(
        _ request: RunRequest,
        beforeOpening: (@Sendable (PageSession) async throws(InjectionError) -> Void)? = nil,
        _ work: @escaping @Sendable (PageSession, PageContext) async throws(InjectionError) -> Output
    ) async throws(PageRunner.Failure) -> Output {
        try await PageRunner.withPage(
            on: request.engine, url: request.address, scriptTimeout: request.timeout,
            loadTimeout: request.loadTimeout ?? request.timeout, dialogs: request.dialogs,
            bypassesContentSecurityPolicy: request.bypassesContentSecurityPolicy,
            waitUntil: request.waitUntil, beforeOpening: beforeOpening
        ) { page, context throws(PageRunner.Failure) in
            do throws(InjectionError) {
                if request.failsOnHTTPError, let status = context.httpStatus, status >= 400 {
                    throw .navigationFailed(url: context.url, reason: "the server answered \(status) (--fail-on-http-error); nothing was run")
                }
                return try await work(page, context)
            } catch {
                throw .injection(error)
            }
        }
    }
}
