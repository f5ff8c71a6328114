import SystemSupport

/// The `details` of one `GM_download` / `GM.download` call, as PageScript performs it.
///
/// The page sends them as JSON, the callbacks left behind in the page:
///
/// ```json
/// {"url": "https://example.com/a.pdf", "name": "papers/a.pdf", "headers": {"Referer": "https://example.com/"},
///  "saveAs": true, "conflictAction": "overwrite", "timeout": 5000}
/// ```
///
/// `timeout` is in milliseconds, as in `GM_xmlhttpRequest`. `"blob": true` stands for a `Blob` or
/// `File` given as the URL, which PageScript does not download (`not_supported`).
public struct GMDownload: Sendable, Hashable {
    /// The URL as the script gave it; relative URLs are read against the page's.
    public var url: String
    /// The name asked for, before it is made safe (``DownloadName``).
    public var name: String?
    /// Request headers, in the order given.
    public var headers: [GMHeaderField]
    /// `saveAs: true`: the browsers open a file dialog; PageScript has none, and says so.
    public var saveAs: Bool
    /// What to do when the name is taken.
    public var conflictAction: DownloadConflictAction
    /// The value the script gave, when it is not one of ``DownloadConflictAction``'s.
    public var unknownConflictAction: String?
    /// The timeout in seconds, or `nil` for the performer's default.
    public var timeout: Double?
    /// The script gave a `Blob` or `File` instead of a URL.
    public var isBlob: Bool

    /// A download with the given parts.
    public init(url: String, name: String? = nil, headers: [GMHeaderField] = [], saveAs: Bool = false,
                conflictAction: DownloadConflictAction = .uniquify, timeout: Double? = nil) {
        self.url = url
        self.name = name
        self.headers = headers
        self.saveAs = saveAs
        self.conflictAction = conflictAction
        self.timeout = timeout
        unknownConflictAction = nil
        isBlob = false
    }

    /// Reads the details the page sent (see the type's discussion); the headers and timeout as
    /// ``GMRequest/init(json:)`` reads them.
    public init(json: JSONValue) throws(GMRequestFailure) {
        let request = try GMRequest(json: ["url": json["url"] ?? "", "headers": json["headers"] ?? .null, "timeout": json["timeout"] ?? .null])
        self.init(url: request.url, name: json["name"]?.stringValue, headers: request.headers, saveAs: json["saveAs"] == .bool(true),
                  conflictAction: DownloadConflictAction(scriptValue: json["conflictAction"]?.stringValue), timeout: request.timeout)
        if let given = json["conflictAction"]?.stringValue, DownloadConflictAction(rawValue: given.lowercased()) == nil { unknownConflictAction = given }
        isBlob = json["blob"] == .bool(true)
    }

    /// The request that fetches it: a `GET` with the script's headers and timeout.
    var request: GMRequest {
        GMRequest(url: url, headers: headers, timeout: timeout, responseType: .arrayBuffer)
    }
}
