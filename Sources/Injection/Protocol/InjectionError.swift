import WebDriver

/// Why a script could not be run on a page (as opposed to the script itself failing, which is a
/// ``ScriptError`` inside a ``ScriptResult``).
public enum InjectionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `Action.js` is not where the package installs it.
    case resourceMissing(name: String, searched: [String])
    /// The URL to open is not an absolute http, https or file URL.
    case invalidURL(String, reason: String)
    /// The page did not load.
    case navigationFailed(url: String, reason: String)
    /// The script (or page) did not finish within the time allowed.
    case timedOut(seconds: Double)
    /// The page's reply did not follow the Action.js protocol (a hostile or broken page).
    case malformedReply(reason: String)
    /// The page moved to another address before the script could run, so it was not run.
    case pageChanged(expected: String, actual: String)
    /// The browser or driver failed.
    case webDriver(WebDriverError)
    /// The script library could not be read.
    case library(String)

    public var description: String {
        switch self {
        case let .resourceMissing(name, searched):
            "\(name) is missing from PageScript's resources (looked in \(searched.joined(separator: ", "))); reinstall PageScript"
        case let .invalidURL(url, reason):
            "invalid URL '\(url)': \(reason)"
        case let .navigationFailed(url, reason):
            "could not open \(url): \(reason)"
        case let .timedOut(seconds):
            "the script did not finish within \(seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)) s"
        case let .malformedReply(reason):
            "the page's reply did not follow the Action.js protocol: \(reason)"
        case let .pageChanged(expected, actual):
            "the page moved from \(expected) to \(actual) before the script ran; it was not run"
        case let .webDriver(error):
            error.description
        case let .library(reason):
            reason
        }
    }
}
