/// The `error` of the object a failed `GM_download` hands to `onerror`, as Tampermonkey names it.
public enum GMDownloadError: String, Sendable, Hashable, CaseIterable {
    /// Downloads are off: the host was given no downloads folder.
    case notEnabled = "not_enabled"
    /// Tampermonkey's file-extension list refused the name; PageScript keeps no such list.
    case notWhitelisted = "not_whitelisted"
    /// The script may not reach the host: its `@connect` lines do not allow it, or the person refused.
    case notPermitted = "not_permitted"
    /// What the script gave cannot be downloaded here (a `Blob`, a URL that is not http or https).
    case notSupported = "not_supported"
    /// The download was tried and failed: the network, an HTTP error status, the file could not
    /// be written, a timeout, or the script aborted it.
    case notSucceeded = "not_succeeded"
}
