import Foundation
import Injection
import UserScripts
import WebDriver

/// What a batch runs on every page.
public enum BatchScript: Sendable {
    /// One script, the same on every page (`-e`, `-f`, `--script`).
    case code(String)
    /// The library's automatic scripts that match each page, as `pagescript run URL` runs them
    /// (`--library`).
    case library(ScriptLibrary)

    /// Whether records carry `scripts` (library mode) instead of `value` and `console`.
    public var isLibrary: Bool {
        if case .library = self { return true }
        return false
    }
}

/// How one attempt at one page ended.
enum VisitOutcome: Sendable {
    /// The page has its record: how it ended, `run --json`'s fields, and the HTTP status.
    /// `sessionReusable` is false when the session may be stuck (a timeout) or broken.
    case finished(status: RecordStatus, page: JSONValue, httpStatus: Int?, sessionReusable: Bool)
    /// The session died under the page (a crashed tab, a dropped session). `charged` is false
    /// when the endpoint itself stopped answering, which says nothing about the page.
    case sessionLost(reason: String, charged: Bool)
    /// PageScript cannot run any page (its own resources are missing).
    case fatal(reason: String)
}

/// The batch's one contact with `Injection`: a page is opened and its script run exactly as
/// `pagescript run` does it (`PageSession.open`, `PageSession.run`, `LibraryRun`), and every
/// failure is sorted into what the record says and whether the session can go on.
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
    /// A single script goes through ``PageSession/openAndRun(_:script:mode:timeout:skippingHTTPErrors:)``:
    /// the navigation and one call per page. Library scripts differ per page, so those pages are
    /// opened first and their scripts chosen by the address the page ended at.
    static func visit(address: String, script: BatchScript, on page: PageSession, timeout: Double) async -> VisitOutcome {
        switch script {
        case let .code(code):
            do {
                switch try await page.openAndRun(address, script: code, timeout: timeout, skippingHTTPErrors: true) {
                case let .ran(result, httpStatus):
                    return .finished(status: result.error == nil ? .ok : .scriptError, page: result.json, httpStatus: httpStatus, sessionReusable: true)
                case let .skipped(context, httpStatus):
                    return httpErrorOutcome(context: context, httpStatus: httpStatus, libraryMode: false)
                }
            } catch {
                return outcome(of: error, url: address, title: nil, libraryMode: false, phase: .running)
            }
        case let .library(library):
            let context: PageContext
            do {
                context = try await page.open(address, loadTimeout: timeout)
            } catch {
                return outcome(of: error, url: address, title: nil, libraryMode: true, phase: .loading)
            }
            let httpStatus = await page.documentStatus()
            if let httpStatus, httpStatus >= 400 {
                return httpErrorOutcome(context: context, httpStatus: httpStatus, libraryMode: true)
            }
            do {
                // Each script may take `timeout` seconds (the session's own limit, set once).
                let run = try await LibraryRun.runMatching(library: library, on: page)
                return libraryOutcome(context: context, results: run.results, httpStatus: httpStatus)
            } catch {
                return outcome(of: error, url: context.url, title: context.title, libraryMode: true, phase: .running)
            }
        }
    }

    private static func httpErrorOutcome(context: PageContext, httpStatus: Int, libraryMode: Bool) -> VisitOutcome {
        let page = BatchRecord.failedPage(status: .httpError, message: "the server answered \(httpStatus); the script was not run",
                                          url: context.url, title: context.title, libraryMode: libraryMode)
        return .finished(status: .httpError, page: page, httpStatus: httpStatus, sessionReusable: true)
    }

    private static func libraryOutcome(context: PageContext, results: [LibraryScriptResult], httpStatus: Int?) -> VisitOutcome {
        var status = RecordStatus.ok
        var timedOut = false
        let scripts: [JSONValue] = results.map { entry in
            var members: [(key: String, value: JSONValue)] = [
                (key: "id", value: .string(entry.script.id.rawValue)),
                (key: "name", value: .string(entry.script.name)),
                (key: "pattern", value: .string(entry.pattern.text)),
            ]
            switch entry.outcome {
            case let .success(result):
                let json = result.json
                members += [(key: "value", value: json["value"] ?? .null), (key: "console", value: json["console"] ?? .array([])),
                            (key: "error", value: json["error"] ?? .null)]
                if result.error != nil, status == .ok { status = .scriptError }
            case let .failure(error):
                if case .timedOut = error { timedOut = true }
                members += [(key: "value", value: .null), (key: "console", value: .array([])),
                            (key: "error", value: ["name": "NotRun", "message": .string(error.description), "line": .null, "column": .null])]
                if status == .ok { status = .scriptError }
            }
            return .object(members)
        }
        let page: JSONValue = [
            "url": .string(context.url), "title": .string(context.title), "scripts": .array(scripts), "error": .null,
        ]
        // A script stuck until its timeout may still hold the page: the session is not reused.
        return .finished(status: timedOut ? .timeout : status, page: page, httpStatus: httpStatus, sessionReusable: !timedOut)
    }

    private enum Phase {
        case loading, running
    }

    private static func outcome(of error: InjectionError, url: String, title: String?, libraryMode: Bool, phase: Phase) -> VisitOutcome {
        func finished(_ status: RecordStatus, _ message: String, reusable: Bool) -> VisitOutcome {
            .finished(status: status, page: BatchRecord.failedPage(status: status, message: message, url: url, title: title, libraryMode: libraryMode),
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
        case .malformedReply, .library, .pageInterfered:
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
