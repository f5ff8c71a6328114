import Foundation

/// What a run did on its page, as ``PageRun/perform(_:)`` returns it and ``ReportRenderer``
/// shows it: one script's result, or the results of the library's scripts that matched the page.
public enum RunReport: Sendable {
    /// One script ran (`-e`, `-f`, `--script`, `--example`); `screenshot` is the saved file's path.
    case script(ScriptResult, screenshot: String?)
    /// The library's automatic scripts for `requested` ran on the page `context` names.
    case library(context: PageContext, requested: String, results: [LibraryScriptResult], screenshot: String?)
    /// What ran first (one script, or the library's), and then code that inspected the page
    /// (``RunRequest/inspection``): `then` is its result, the run's value.
    indirect case inspected(RunReport, then: ScriptResult)

    /// The page the run started on, as the browser reported it.
    public var context: PageContext {
        switch self {
        case let .script(result, _): result.context
        case let .library(context, _, _, _): context
        case let .inspected(before, _): before.context
        }
    }

    /// The path of the screenshot saved after the run, if one was.
    public var screenshot: String? {
        switch self {
        case let .script(_, screenshot), let .library(_, _, _, screenshot): screenshot
        case let .inspected(before, _): before.screenshot
        }
    }

    /// How a run that completed went, for its exit status.
    public enum Ending: Sendable, Equatable {
        /// Every script ran without an error.
        case succeeded
        /// A script threw, did not parse, or could not run.
        case scriptFailed
        /// A library script did not finish in time.
        case timedOut
    }

    /// How the run went.
    public var ending: Ending {
        switch self {
        case let .script(result, _):
            return result.error == nil ? .succeeded : .scriptFailed
        case let .library(_, _, results, _):
            if results.contains(where: { if case .failure(.timedOut) = $0.outcome { true } else { false } }) { return .timedOut }
            return results.allSatisfy(\.succeeded) ? .succeeded : .scriptFailed
        case let .inspected(before, then):
            return before.ending != .succeeded ? before.ending : then.error == nil ? .succeeded : .scriptFailed
        }
    }
}
