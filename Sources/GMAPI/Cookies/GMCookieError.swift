import SystemSupport

/// Why a `GM_cookie` call did nothing: the script gets ``description`` as the error its callback
/// is passed (`GM.cookie`'s promise is rejected with it).
public enum GMCookieError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The details cannot be used.
    case malformed(String)
    /// The script may not reach the cookies of that address.
    case notAllowed(url: String, reason: String)
    /// The engine cannot reach those cookies from the page it shows (classic WebDriver's cookie
    /// commands see only the current document's).
    case outOfReach(url: String, reason: String)
    /// The browser refused or failed the command.
    case failed(String)

    public var description: String {
        switch self {
        case let .malformed(reason): "GM_cookie: \(reason)"
        case let .notAllowed(url, reason): "GM_cookie: not allowed for \(url): \(reason)"
        case let .outOfReach(url, reason): "GM_cookie: the cookies of \(url) are out of reach: \(reason)"
        case let .failed(reason): "GM_cookie: \(reason)"
        }
    }
}
