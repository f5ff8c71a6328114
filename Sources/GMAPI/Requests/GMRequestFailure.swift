import SystemSupport

/// Why a `GM_xmlhttpRequest` produced no response, and which of the script's callbacks hears of it.
///
/// ``callback`` maps each case to `onerror`, `ontimeout` or `onabort`; ``json`` is the object the
/// page passes to that callback (`status` 0, an `error` message, the URL reached so far), as the
/// managers do.
public enum GMRequestFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// The script's `@connect` lines do not allow this host (first URL, a redirect hop, or the
    /// final URL); nothing was sent to it.
    case forbiddenHost(url: String, host: String, addLine: String)
    /// The user refused a host the script's `@connect` lines do not name, when asked.
    case refusedByUser(url: String, host: String)
    /// The details are not a request PageScript can make (no URL, a malformed header).
    case invalidRequest(String)
    /// The URL cannot be read, or is not http or https.
    case unsupportedURL(String, reason: String)
    /// The connection failed or broke (refused, DNS, TLS, reset).
    case network(url: String, reason: String)
    /// The response body is larger than the performer's limit; it was not kept.
    case responseTooLarge(url: String, limit: Int)
    /// The server redirected more times than the limit allows.
    case tooManyRedirects(url: String, limit: Int)
    /// The server redirected and the request said `redirect: "error"`.
    case redirectRefused(url: String, location: String)
    /// No complete response within the timeout.
    case timedOut(url: String, seconds: Double)
    /// The script called `abort()`, or the run ended, before the response was complete.
    case aborted(url: String)

    /// The callback that reports this failure to the script.
    public var callback: GMRequestCallback {
        switch self {
        case .timedOut: .ontimeout
        case .aborted: .onabort
        default: .onerror
        }
    }

    /// The URL the request had reached when it failed, if any.
    public var finalURL: String? {
        switch self {
        case .forbiddenHost(let url, _, _), .refusedByUser(let url, _), .network(let url, _), .responseTooLarge(let url, _), .tooManyRedirects(let url, _),
             .redirectRefused(let url, _), .timedOut(let url, _), .aborted(let url):
            url
        case .unsupportedURL(let url, _):
            url
        case .invalidRequest:
            nil
        }
    }

    /// What happened, for the script's `error` field and for the terminal.
    public var description: String {
        switch self {
        case .forbiddenHost(let url, let host, let addLine):
            "GM_xmlhttpRequest to \(url) refused: the script's @connect lines do not allow \(host). Add `\(addLine)` to its metadata block "
                + "(or allow it for one run with --connect \(host))."
        case .refusedByUser(let url, let host):
            "GM_xmlhttpRequest to \(url) refused: you refused \(host) for this script when asked (the answer is kept in the library's "
                + ".pagescript-connect folder; add a @connect line for \(host) to allow it)"
        case .invalidRequest(let reason):
            "GM_xmlhttpRequest refused: \(reason)"
        case .unsupportedURL(let url, let reason):
            "GM_xmlhttpRequest to \(url) refused: \(reason)"
        case .network(let url, let reason):
            "GM_xmlhttpRequest to \(url) failed: \(reason)"
        case .responseTooLarge(let url, let limit):
            "GM_xmlhttpRequest to \(url) failed: the response is larger than PageScript's limit of \(ReadableAmount.bytes(limit))"
        case .tooManyRedirects(let url, let limit):
            "GM_xmlhttpRequest to \(url) failed: more than \(limit) redirects"
        case .redirectRefused(let url, let location):
            "GM_xmlhttpRequest to \(url) failed: the server redirected to \(location) and the request said redirect: \"error\""
        case .timedOut(let url, let seconds):
            "GM_xmlhttpRequest to \(url) timed out after \(ReadableAmount.seconds(seconds))"
        case .aborted(let url):
            "GM_xmlhttpRequest to \(url) was aborted"
        }
    }

    /// The object the page hands to ``callback``:
    /// `{"callback": "onerror", "status": 0, "statusText": "", "readyState": 4, "responseHeaders": "",
    /// "finalUrl": URL, "error": MESSAGE}`.
    public var json: JSONValue {
        [
            "callback": .string(callback.rawValue),
            "status": 0,
            "statusText": "",
            "readyState": 4,
            "responseHeaders": "",
            "finalUrl": finalURL.map(JSONValue.string) ?? .null,
            "error": .string(description),
        ]
    }
}
