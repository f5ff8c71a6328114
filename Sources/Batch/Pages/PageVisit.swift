import Foundation
import PageRuntime
import SystemSupport
import UserScripts
import WebDriver

/// What a batch runs on every page.
public enum BatchScript: Sendable {
    /// One script, the same on every page (`-e`, `-f`): plain JavaScript.
    case code(String)
    /// One userscript, the same on every page, as `pagescript run --script` runs it: with the GM
    /// API its `@grant` lines ask for, its `@require` files, and its values under `id` in
    /// `libraryDirectory` (`--script`, `--example`, code with a metadata block). `mode` says how
    /// its text reads (``PageRuntime/ScriptMode/console`` for `-e` code).
    case userScript(UserScript, id: ScriptID?, mode: ScriptMode, libraryDirectory: URL)
    /// The library's automatic scripts that match each page, as `pagescript run URL` runs them
    /// (`--library`).
    case library(ScriptLibrary)
}

/// What a visit runs: a ``BatchScript`` with the GM API's host the batch keeps for its
/// userscripts, one for every page, as one browser's manager serves every tab. A script that is
/// not in the library keeps its values there for the batch (a page sees what the pages before it
/// set); a library script keeps them in the library; a tab's `GM_saveTab` object lasts as long as
/// its session.
enum VisitScript: Sendable {
    /// Plain JavaScript, without the GM API.
    case code(String)
    /// One userscript on every page (``BatchScript/userScript(_:id:mode:libraryDirectory:)``).
    case userScript(UserScript, id: ScriptID?, mode: ScriptMode, host: GMHost)
    /// The library's scripts that match each page (``BatchScript/library(_:)``).
    case library(ScriptLibrary, host: GMHost)

    /// `script`, with a host whose scripts may also reach `connecting` and whose `GM_download`
    /// saves into `downloads`.
    init(_ script: BatchScript, connecting: [String], downloads: URL?) {
        switch script {
        case let .code(code):
            self = .code(code)
        case let .userScript(userScript, id, mode, libraryDirectory):
            self = .userScript(userScript, id: id, mode: mode,
                               host: GMHost(libraryDirectory: libraryDirectory, connecting: connecting, downloads: downloads))
        case let .library(library):
            self = .library(library, host: GMHost(libraryDirectory: library.directory, connecting: connecting, downloads: downloads))
        }
    }

    /// Whether records carry `scripts` (library mode) instead of `value` and `console`.
    var isLibrary: Bool {
        if case .library = self { return true }
        return false
    }

    /// The GM API's host; `nil` for plain JavaScript. Shut it down when the batch ends.
    var host: GMHost? {
        switch self {
        case .code: nil
        case let .userScript(_, _, _, host), let .library(_, host): host
        }
    }
}

/// How one attempt at one page ended.
enum VisitOutcome: Sendable {
    /// The page has its record: how it ended, what happened there (`run --json`'s members), and
    /// the HTTP status. `sessionReusable` is false when the session may be stuck (a timeout) or
    /// broken.
    case finished(status: RecordStatus, page: PageReport, httpStatus: Int?, sessionReusable: Bool)
    /// The session died under the page (a crashed tab, a dropped session). `charged` is false
    /// when the endpoint itself stopped answering, which says nothing about the page.
    case sessionLost(reason: String, charged: Bool)
    /// PageScript cannot run any page (its own resources are missing).
    case fatal(reason: String)
}

/// The batch's one contact with `PageRuntime`: a page is opened and its script run exactly as
/// `pagescript run` does it (`PageSession.open`, `PageSession.run`, `LibraryRun`, with the
/// library's `document-start` scripts installed before the page's own where the engine allows),
/// and every failure is sorted into what the record says and whether the session can go on.
enum PageVisit {
    /// What an input line names.
    enum Address {
        /// A URL to open.
        case page(String)
        /// Not a URL PageScript opens, and why (an `invalid-url` record).
        case invalid(String)
    }

    /// The address to open for `entry`, or why it is not one.
    static func address(of entry: BatchEntry) -> Address {
        if let problem = entry.problem { return .invalid(problem) }
        do throws(InjectionError) {
            return .page(try PageAddress.resolve(entry.text))
        } catch {
            return .invalid(error.description)
        }
    }

    /// Opens `address` on `page` and runs `script` there: a single script within `timeout` seconds
    /// for the load and the run together; library scripts after the load, each within `timeout`.
    ///
    /// A single script goes through ``PageSession/openAndRun(_:script:mode:input:timeout:skippingHTTPErrors:)``:
    /// the navigation and one call per page. Library scripts differ per page: their
    /// `document-start` scripts are installed before the navigation (as `pagescript run` does), the
    /// others chosen by the address the page ended at.
    /// `input`: what a single script finds as `input` (the entry's URL and fields). With a
    /// `loadTimeout` (`--load-timeout`), the load has that long and each script `timeout` of its
    /// own.
    static func visit(address: String, script: VisitScript, input: JSONValue? = nil, on page: PageSession, timeout: Double,
                      loadTimeout: Double? = nil) async -> VisitOutcome {
        switch script {
        case let .code(code):
            if let loadTimeout {
                return await visit(address: address, code: code, input: input, on: page, loadTimeout: loadTimeout, timeout: timeout)
            }
            do {
                switch try await page.openAndRun(address, script: code, input: input, timeout: timeout, skippingHTTPErrors: true) {
                case let .ran(result, httpStatus):
                    return .finished(status: result.error == nil ? .ok : .scriptError, page: .completed(.script(result, screenshot: nil)),
                                     httpStatus: httpStatus, sessionReusable: true)
                case let .skipped(context, httpStatus):
                    return httpErrorOutcome(context: context, httpStatus: httpStatus, libraryMode: false)
                }
            } catch {
                return outcome(of: error, url: address, title: nil, libraryMode: false, phase: .running)
            }
        case let .userScript(script, id, mode, host):
            return await visit(address: address, userScript: script, id: id, mode: mode, input: input, on: page, host: host,
                               timeout: timeout, loadTimeout: loadTimeout)
        case let .library(library, host):
            let planned: PlannedScripts
            do {
                planned = try PlannedScripts(library: library, address: address)
            } catch {
                return outcome(of: .library(error.description), url: address, title: nil, libraryMode: true, phase: .loading)
            }
            return await visit(address: address, planned: planned, library: library, on: page, host: host, timeout: timeout,
                               loadTimeout: loadTimeout)
        }
    }

    /// A script on `address` after a load of its own limit: the page is opened within
    /// `loadTimeout`, then the script run within `timeout`.
    private static func visit(address: String, code: String, input: JSONValue?, on page: PageSession, loadTimeout: Double,
                              timeout: Double) async -> VisitOutcome {
        let context: PageContext
        do {
            context = try await page.open(address, loadTimeout: loadTimeout)
        } catch {
            return outcome(of: error, url: address, title: nil, libraryMode: false, phase: .loading)
        }
        let httpStatus = context.httpStatus
        if let httpStatus, httpStatus >= 400 {
            return httpErrorOutcome(context: context, httpStatus: httpStatus, libraryMode: false)
        }
        do {
            let result = try await page.run(script: code, requiredURL: context.url, input: input, timeout: timeout)
            return .finished(status: result.error == nil ? .ok : .scriptError, page: .completed(.script(result, screenshot: nil)),
                             httpStatus: httpStatus, sessionReusable: true)
        } catch {
            return outcome(of: error, url: context.url, title: context.title, libraryMode: false, phase: .running)
        }
    }

    /// One userscript on `address`: the page is opened, then the script run with its GM API,
    /// within `timeout` for the load and the run together, as `run` runs it (with a
    /// `loadTimeout`, the load within that and the run within `timeout`).
    private static func visit(
        address: String, userScript script: UserScript, id: ScriptID?, mode: ScriptMode, input: JSONValue?, on page: PageSession, host: GMHost,
        timeout: Double, loadTimeout: Double?
    ) async -> VisitOutcome {
        let started = Date()
        let context: PageContext
        do {
            context = try await page.open(address, loadTimeout: loadTimeout ?? timeout)
        } catch {
            return outcome(of: error, url: address, title: nil, libraryMode: false, phase: .loading)
        }
        // The status came with the page's context: no call of its own.
        let httpStatus = context.httpStatus
        if let httpStatus, httpStatus >= 400 {
            return httpErrorOutcome(context: context, httpStatus: httpStatus, libraryMode: false)
        }
        var remaining = loadTimeout == nil ? timeout - Date().timeIntervalSince(started) : timeout
        // A page whose load ran out of the time gets the script for a second at least, as `run` gives it.
        if context.unfinishedLoad != nil { remaining = max(1, remaining) }
        do throws(InjectionError) {
            guard remaining > 0 else { throw .timedOut(seconds: timeout) }
            let result = try await page.run(userScript: script, id: id, host: host, mode: mode, input: input, requiredURL: context.url,
                                            timeout: remaining)
            return .finished(status: result.error == nil ? .ok : .scriptError, page: .completed(.script(result, screenshot: nil)),
                             httpStatus: httpStatus, sessionReusable: true)
        } catch {
            // A timeout is the batch's, not what was left of it after loading.
            if case let .timedOut(_, partial) = error {
                return outcome(of: .timedOut(seconds: timeout, partial: partial), url: context.url, title: context.title, libraryMode: false, phase: .running)
            }
            return outcome(of: error, url: context.url, title: context.title, libraryMode: false, phase: .running)
        }
    }

    /// The library's scripts for `address`, `planned` before the navigation, run on `page`.
    private static func visit(
        address: String, planned: PlannedScripts, library: ScriptLibrary, on page: PageSession, host: GMHost, timeout: Double,
        loadTimeout: Double?
    ) async -> VisitOutcome {
        let context: PageContext
        do {
            _ = try await page.installDocumentStartScripts(planned.documentStart, url: address, host: host)
            context = try await page.open(address, loadTimeout: loadTimeout ?? timeout)
        } catch {
            await page.discardDocumentStartScripts()
            return outcome(of: error, url: address, title: nil, libraryMode: true, phase: .loading)
        }
        // The status came with the page's context: no call of its own.
        let httpStatus = context.httpStatus
        if let httpStatus, httpStatus >= 400 {
            await page.discardDocumentStartScripts()
            return httpErrorOutcome(context: context, httpStatus: httpStatus, libraryMode: true)
        }
        do {
            // Each script may take `timeout` seconds (the session's own limit, set once).
            let early = try await page.collectDocumentStartRuns()
            let run = try await LibraryRun.runMatching(planned: planned, library: { library }, on: page, host: host, early: early)
            let report = RunReport.library(context: context, requested: run.url, results: run.results, screenshot: nil)
            let status: RecordStatus = switch report.ending {
            case .succeeded: .ok
            case .scriptFailed: .scriptError
            case .timedOut: .timeout
            }
            // A script stuck until its timeout may still hold the page: the session is not reused.
            return .finished(status: status, page: .completed(report), httpStatus: httpStatus, sessionReusable: report.ending != .timedOut)
        } catch {
            await page.discardDocumentStartScripts()
            return outcome(of: error, url: context.url, title: context.title, libraryMode: true, phase: .running)
        }
    }

    private static func httpErrorOutcome(context: PageContext, httpStatus: Int, libraryMode: Bool) -> VisitOutcome {
        let page = BatchRecord.failedPage(status: .httpError, message: "the server answered \(httpStatus); the script was not run",
                                          url: context.url, title: context.title, libraryMode: libraryMode)
        return .finished(status: .httpError, page: page, httpStatus: httpStatus, sessionReusable: true)
    }

    private enum Phase {
        case loading, running
    }

    private static func outcome(of error: InjectionError, url: String, title: String?, libraryMode: Bool, phase: Phase) -> VisitOutcome {
        // What the script produced before it stopped (a timeout's console lines, dialogs) stays in the record.
        let partial = error.partialResult
        func finished(_ status: RecordStatus, _ message: String, reusable: Bool) -> VisitOutcome {
            .finished(status: status, page: BatchRecord.failedPage(status: status, message: message, url: partial?.context.url ?? url,
                                                                   title: partial?.context.title ?? title, libraryMode: libraryMode, partial: partial),
                      httpStatus: nil, sessionReusable: reusable)
        }
        switch error {
        case .timedOut, .loadTimedOut:
            return finished(.timeout, error.description, reusable: false)
        case let .navigationFailed(_, reason):
            // The session's page-load timeout, reported by the driver as a failed navigation.
            if reason.hasPrefix("the page did not load within") { return finished(.timeout, error.description, reusable: false) }
            return finished(.loadFailed, error.description, reusable: true)
        case .invalidURL:
            return finished(.invalidURL, error.description, reusable: true)
        case let .pageChanged(_, actual), let .navigatedAway(actual, _):
            return .finished(status: .navigatedAway,
                             page: BatchRecord.failedPage(status: .navigatedAway, message: error.description, url: actual, title: nil, libraryMode: libraryMode),
                             httpStatus: nil, sessionReusable: true)
        case .malformedReply, .library, .filesMissing, .pageInterfered:
            // The next visit navigates the session elsewhere, leaving this page behind.
            return finished(.failed, error.description, reusable: true)
        case .resourceMissing:
            return .fatal(reason: error.description)
        case let .webDriver(driverError):
            return outcome(of: driverError, finished: finished, phase: phase)
        }
    }

    private static func outcome(
        of error: WebDriverError, finished: (RecordStatus, String, Bool) -> VisitOutcome, phase: Phase
    ) -> VisitOutcome {
        switch error {
        case .unreachable:
            return .sessionLost(reason: error.description, charged: false)
        case .requestTimedOut, .protocolError(code: .timeout, _, _), .protocolError(code: .scriptTimeout, _, _):
            let what = phase == .loading ? "the page did not load in time" : "the script did not finish in time"
            return finished(.timeout, "\(what): \(error.description)", false)
        case _ where error.meansTheSessionIsGone:
            return .sessionLost(reason: error.description, charged: true)
        case .unknownProtocolError, .protocolError(code: .unknownError, _, _):
            return finished(.failed, error.description, false)
        case .protocolError(code: .unexpectedAlertOpen, _, _):
            return finished(.failed, "the page opened a dialog: \(error.description)", true)
        case .protocolError, .malformedReply:
            return finished(.failed, error.description, false)
        }
    }
}
