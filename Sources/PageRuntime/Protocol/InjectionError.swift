import WebDriver

/// Why a script could not be run on a page, or was cut short (as opposed to the script itself
/// failing, which is a ``ScriptError`` inside a ``ScriptResult``).
///
/// A failure during a run carries the run's partial result when there is one (the console lines
/// and dialogs up to the failure), so that a caller can still show them.
public enum InjectionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `Action.js` is not where the package installs it.
    case resourceMissing(name: String, searched: [String])
    /// The URL to open is not an absolute http, https or file URL.
    case invalidURL(String, reason: String)
    /// The page did not load (refused, unknown host, TLS failure, missing file, ...).
    case navigationFailed(url: String, reason: String)
    /// The page did not finish loading in time.
    case loadTimedOut(url: String, seconds: Double)
    /// The script did not finish within the time allowed.
    case timedOut(seconds: Double, partial: ScriptResult? = nil)
    /// The page's reply did not follow PageScript's protocol.
    case malformedReply(reason: String)
    /// The page broke what PageScript or the driver needs in it (replaced built-ins beyond repair,
    /// a document that answers with something else).
    case pageInterfered(reason: String, partial: ScriptResult? = nil)
    /// The page navigated or reloaded while the script ran, so the script's outcome is lost.
    case navigatedAway(to: String, partial: ScriptResult? = nil)
    /// The page moved to another address before the script could run, so it was not run.
    case pageChanged(expected: String, actual: String)
    /// The browser or driver failed.
    case webDriver(WebDriverError)
    /// The script library could not be read.
    case library(String)
    /// A userscript's `@require` or `@resource` files are not in the library's cache and could
    /// not be fetched: it was not run. The reason names each file and why.
    case filesMissing(String)

    /// The `Timeout` error a partial result of a run that ran out of `seconds` carries.
    static func timeoutError(seconds: Double) -> ScriptError {
        ScriptError(name: "Timeout", message: InjectionError.timedOut(seconds: seconds).description)
    }

    /// What the run had produced before it failed: its console lines and dialogs, when any.
    public var partialResult: ScriptResult? {
        switch self {
        case let .timedOut(_, partial), let .pageInterfered(_, partial), let .navigatedAway(_, partial): partial
        default: nil
        }
    }

    public var description: String {
        switch self {
        case let .resourceMissing(name, searched):
            "\(name) is missing from PageScript's resources (looked in \(searched.joined(separator: ", "))); reinstall PageScript"
        case let .invalidURL(url, reason):
            "invalid URL '\(url)': \(reason)"
        case let .navigationFailed(url, reason):
            "could not open \(url): \(reason)"
        case let .loadTimedOut(url, seconds):
            "\(url) did not load within \(Self.format(seconds)) s"
        case let .timedOut(seconds, _):
            "the script did not finish within \(Self.format(seconds)) s"
        case let .malformedReply(reason):
            "the page's reply did not follow PageScript's protocol: \(reason)"
        case let .pageInterfered(reason, _):
            "the page interfered with PageScript: \(reason)"
        case let .navigatedAway(url, _):
            "the page navigated away while the script ran; it is now at \(url)"
        case let .pageChanged(expected, actual):
            "the page moved from \(expected) to \(actual) before the script ran; it was not run"
        case let .webDriver(error):
            error.description
        case let .library(reason), let .filesMissing(reason):
            reason
        }
    }

    static func format(_ seconds: Double) -> String {
        // Tenths at most: `4.7`, not `4.652230620384216`.
        let tenths = (seconds * 10).rounded() / 10
        return tenths == tenths.rounded() ? String(Int(tenths)) : String(tenths)
    }
}
