/// How one page of a batch ended: the `status` field of its record.
///
/// `ok` and `script-error` mean the script ran; every other status means it could not run (or
/// could not finish), and the record's `error` says why, with the name given by ``errorName``.
public enum RecordStatus: String, Sendable, CaseIterable, Comparable {
    /// The script ran to completion (every matching script, in library mode).
    case ok
    /// The script threw or did not parse (any script, in library mode); `error` is its error.
    case scriptError = "script-error"
    /// The input line is not a URL PageScript opens.
    case invalidURL = "invalid-url"
    /// The browser could not load the page (refused, unknown host, TLS failure, missing file).
    case loadFailed = "load-failed"
    /// The server answered with an HTTP error (400 or more); the script was not run.
    case httpError = "http-error"
    /// The page sent the browser to another address (its own script, or the page before it as
    /// the navigation began, twice) before the script could run or finish: nothing of the
    /// other document is recorded; `url` says where the browser went.
    case navigatedAway = "navigated-away"
    /// The page did not load, or the script did not finish, within `--timeout`.
    case timeout
    /// The browser tab or the session died on every attempt (`--retries` more than the first).
    case crashed
    /// Anything else that stopped the script: the page broke PageScript's protocol, the driver
    /// answered with an error.
    case failed

    /// The `error.name` of a record with this status, when PageScript (not the script) wrote it.
    public var errorName: String {
        switch self {
        case .ok, .scriptError: ""
        case .invalidURL: "InvalidURL"
        case .loadFailed: "LoadFailed"
        case .httpError: "HTTPError"
        case .navigatedAway: "NavigatedAway"
        case .timeout: "Timeout"
        case .crashed: "Crashed"
        case .failed: "Failed"
        }
    }

    /// Whether another attempt may end otherwise (`--retries`): the page timed out or did not load,
    /// or its server answered with a server error (`httpStatus` 500 and up). A script's error, a
    /// 4xx, a page that sent the browser elsewhere are what they are.
    public func isWorthRetrying(httpStatus: Int?) -> Bool {
        switch self {
        case .timeout, .loadFailed: true
        case .httpError: (httpStatus ?? 0) >= 500
        default: false
        }
    }

    /// Whether the script ran on the page (whatever it then did).
    public var scriptRan: Bool {
        self == .ok || self == .scriptError
    }

    public static func < (lhs: RecordStatus, rhs: RecordStatus) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
