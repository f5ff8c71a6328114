/// `responseType` of a `GM_xmlhttpRequest`: how the body reaches the page.
public enum GMResponseType: String, Sendable, Hashable, CaseIterable {
    /// `""` or `"text"`: `responseText` and `response` are the decoded text.
    case text
    /// `"json"`: `response` is the parsed JSON (`null` when the body is not JSON); `responseText`
    /// is the text.
    case json
    /// `"arraybuffer"`: the bytes, base64-encoded, for the page to rebuild an `ArrayBuffer`.
    case arrayBuffer = "arraybuffer"
    /// `"blob"`: the bytes, base64-encoded, and the content type, for the page to rebuild a `Blob`.
    case blob
    /// `"document"`: the text, for the page to parse with its own `DOMParser`.
    case document

    /// Reads the page's value; `""` and absent mean ``text``, and so does anything unknown, as in
    /// `XMLHttpRequest`.
    public init(pageValue: String?) {
        self = pageValue.flatMap { GMResponseType(rawValue: $0.lowercased()) } ?? .text
    }

    /// Whether the body travels as base64 bytes rather than text.
    public var isBinary: Bool { self == .arrayBuffer || self == .blob }
}
