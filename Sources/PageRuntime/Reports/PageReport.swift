
/// What happened on one page, for any command: the run completed (``RunReport``), or it did not
/// and ``UnfinishedRun`` says why, where the browser got to and what the script produced before
/// it stopped.
///
/// `pagescript run --json` and every line of `pagescript batch` are this report rendered by
/// ``ReportRenderer/json(of:)``, so a page, script and dialogs give the same members in both.
///
/// ```swift
/// let report = PageReport.completed(.script(result, screenshot: nil))
/// ReportRenderer.json(of: report)   // {"url","title","httpStatus","value","console","dialogs","error"}
/// ```
public enum PageReport: Sendable {
    /// The script (or the library's scripts) ran; their own errors are inside.
    case completed(RunReport)
    /// The run did not complete.
    case unfinished(UnfinishedRun)

    /// Whether the report is of the library's scripts (`scripts`) rather than one script's
    /// (`value`, `console`, `dialogs`).
    public var isLibrary: Bool {
        switch self {
        case .completed(.script), .completed(.inspected): false
        case .completed(.library): true
        case let .unfinished(run): run.isLibrary
        }
    }
}

/// A run that did not complete: why, as an error name and message, the page the browser got to,
/// and what the script produced before it stopped (console lines, dialogs).
public struct UnfinishedRun: Sendable {
    /// The `error.name` the report carries (`Timeout`, `LoadFailed`, `NavigatedAway`, ...).
    public let errorName: String
    /// Why the run did not complete, for `error.message`.
    public let message: String
    /// The page's address when the browser got that far (where it went instead, for a page that
    /// navigated away).
    public let url: String?
    /// The page's title, when known.
    public let title: String?
    /// What the script produced before it stopped; `nil` when it never started.
    public let partial: ScriptResult?
    /// Whether the run was of the library's scripts.
    public let isLibrary: Bool

    public init(errorName: String, message: String, url: String?, title: String?, partial: ScriptResult? = nil, isLibrary: Bool) {
        self.errorName = errorName
        self.message = message
        self.url = url
        self.title = title
        self.partial = partial
        self.isLibrary = isLibrary
    }

    /// The report of a `run` that failed with `failure` on `address`.
    public init(_ failure: PageRunner.Failure, address: String, isLibrary: Bool) {
        var partial: ScriptResult?
        if case let .injection(error) = failure { partial = error.partialResult }
        self.init(errorName: ReportRenderer.failureName(failure), message: failure.description, url: partial?.context.url ?? address,
                  title: partial?.context.title, partial: partial, isLibrary: isLibrary)
    }

    /// The error the report carries.
    public var error: ScriptError {
        ScriptError(name: errorName, message: message)
    }
}
