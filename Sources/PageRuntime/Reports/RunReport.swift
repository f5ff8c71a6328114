import Foundation

/// What a run did on its page, as ``PageRun/perform(_:)`` returns it and ``ReportRenderer``
/// shows it: one script's result, or the results of the library's scripts that matched the page.
public enum RunReport: Sendable {
    /// One script ran (`-e`, `-f`, `--script`, `--example`); `screenshot` is the saved file's path.
    case script(ScriptResult, screenshot: String?)
    /// The library's automatic scripts for `requested` ran on the page `context` names.
    case library(context: PageContext, requested: String, results: [LibraryScriptResult], screenshot: String?)

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
        }
    }
}
