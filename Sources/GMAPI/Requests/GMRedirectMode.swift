/// What a `GM_xmlhttpRequest` does when the server redirects (Tampermonkey's `redirect` option).
public enum GMRedirectMode: String, Sendable, Hashable, CaseIterable {
    /// Follow up to the performer's limit, checking every hop against `@connect` (the default).
    case follow
    /// Fail with `onerror` at the first redirect.
    case error
    /// Hand the redirect response itself to the script.
    case manual
}
