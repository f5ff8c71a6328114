/// The callbacks of `GM_xmlhttpRequest` that end a request: the page calls the one a
/// ``GMResponse`` or ``GMRequestFailure`` names (and `onloadend` after any of them).
public enum GMRequestCallback: String, Sendable, Hashable, CaseIterable {
    /// A response arrived, whatever its status.
    case onload
    /// No response: refused, unreachable, too large, too many redirects.
    case onerror
    /// No complete response within the timeout.
    case ontimeout
    /// The script aborted the request, or the run ended.
    case onabort
}
