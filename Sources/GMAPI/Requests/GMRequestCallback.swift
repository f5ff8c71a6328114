/// The callbacks of `GM_xmlhttpRequest` that end a request.
public enum GMRequestCallback: String, Sendable, Hashable, CaseIterable {
    case onload
    case onerror
    case ontimeout
    case onabort
}
